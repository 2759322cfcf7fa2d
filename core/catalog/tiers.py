"""Where a KV cache can live besides HBM: host memory over PCIe or NVLink-C2C, and local NVMe.

Engines of 2025-26 (vLLM's and SGLang's hierarchical caches, LMCache, NVIDIA Dynamo's KV block
manager) spill cached prefixes out of HBM to the host's memory and to local SSDs and copy them
back when a request reuses them. Each tier is a capacity per node and a bandwidth per card back
to HBM, from spec sheets; a reuse costs the prefix's bytes over that bandwidth instead of a
prefill.
"""

from __future__ import annotations

from dataclasses import dataclass

GB = 1e9


@dataclass(frozen=True)
class KvTier:
    """One place a node keeps cache: capacity per node, bandwidth per card back to HBM."""

    name: str
    capacity_bytes: float  # per node
    bytes_per_s: float  # per card, into HBM
    source: str


_PCIE5 = (
    "PCI-SIG PCIe 5.0: 32 GT/s a lane, 16 lanes with 128b/130b coding, about 63 GB/s each way; "
    "one x16 link per GPU to its host"
)
_DGX_H100 = "NVIDIA DGX H100 datasheet: 2 TB of system memory, 8 x 3.84 TB NVMe U.2 data drives"
_GH200 = (
    "NVIDIA GH200 Grace Hopper datasheet: NVLink-C2C 900 GB/s between Grace and Hopper "
    "(450 GB/s each way), up to 480 GB of LPDDR5X per Grace"
)
_NVME = (
    "Samsung PM9A3 U.2 3.84 TB spec sheet: 6,900 MB/s sequential read; eight drives a node "
    "(DGX H100), shared by its eight cards"
)

HOST_PCIE = KvTier("host memory over PCIe Gen5", 2000 * GB, 63e9, f"{_PCIE5}; {_DGX_H100}")
HOST_C2C = KvTier("host memory over NVLink-C2C", 480 * GB, 450e9, _GH200)
NVME = KvTier("local NVMe", 8 * 3840 * GB, 6.9e9, f"{_NVME}; {_DGX_H100}")

# The offload knob's choices: which tier holds cached prefixes that HBM lets go.
OFFLOAD_TIERS: dict[str, tuple[KvTier, ...]] = {
    "off": (),
    "host-pcie": (HOST_PCIE,),
    "host-c2c": (HOST_C2C,),
    "host-nvme": (HOST_PCIE, NVME),
}
OFFLOADS = list(OFFLOAD_TIERS)
