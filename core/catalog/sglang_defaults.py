"""Where SGLang's release defaults are read (the source strings of
:mod:`core.catalog.engine_versions`' SGLang releases)."""

SGL_SEQS = "SGLang model_runner.py: a request pool of at least 2,048"
SGL_CHUNK = (
    "SGLang server_args.py (0.3 and 0.4 lines): chunked_prefill_size 2,048 where the card reports "
    "under 25,000 MiB, else 8,192 (later 0.4 releases raise it to 16,384 above 160 GiB: not "
    "priced, the line's releases differ)"
)
# the chunk by the memory the card reports, in MiB: (below, tokens), smallest first
SGL_CHUNK_TIERS = ((25000 * 2**20, 2048),)
SGL_05_CHUNK_TIERS = ((35 * 2**30, 2048), (60 * 2**30, 4096), (160 * 2**30, 8192))
SGL_CHUNK_05 = (
    "SGLang server_args.py _handle_gpu_memory_settings (0.5 line): chunked_prefill_size 2,048 "
    "under 35 GiB (T4, A10, 4090), 4,096 under 60 (A100 40GB, L40), 8,192 under 160 (H100, "
    "A100, H20, H200), 16,384 above (B200, MI300)"
)
SGL_GRAPH = (
    "SGLang server_args.py: cuda_graph_max_bs by card memory and tensor parallelism (256 on "
    "80 GB cards below TP 4, 512 at TP 4 and more)"
)
SGL_RECV = (
    "SGLang scheduler_recv_skipper.py (SchedulerRecvSkipper, made where --scheduler-recv-interval "
    "is above its default of 1): the scheduler polls for new requests once its counter reaches "
    "the interval, a decode step adding 1 and any other step (a prefill) 1,000, so a poll comes "
    "every interval decode steps or right after a prefill"
)
SGL_GRAPH_160 = "SGLang server_args.py (0.3, 0.4 lines): cuda_graph_max_bs = 160 from 25 GB"
