"""Where SGLang's release defaults are read (the source strings of
:mod:`core.catalog.engine_versions`' SGLang releases)."""

SGL_SEQS = "SGLang model_runner.py: a request pool of at least 2,048"
SGL_CHUNK = (
    "SGLang server_args.py: chunked_prefill_size 8,192 on cards of 60-160 GB (2,048 under 35 "
    "GB, 4,096 under 60, 16,384 above 160)"
)
SGL_GRAPH = (
    "SGLang server_args.py: cuda_graph_max_bs by card memory and tensor parallelism (256 on "
    "80 GB cards below TP 4, 512 at TP 4 and more)"
)
SGL_GRAPH_160 = "SGLang server_args.py (0.3, 0.4 lines): cuda_graph_max_bs = 160 from 25 GB"
