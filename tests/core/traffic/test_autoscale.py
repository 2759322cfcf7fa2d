"""Autoscaling against renting for the peak: nodes bought and serving, the bill, goodput."""

from __future__ import annotations

import numpy as np

from core import Scenario
from core.traffic.autoscale import BOOT_S, autoscaled_hour, provisioning_s
from core.traffic.rent_or_autoscale import compare_policies


def test_an_ordered_node_is_paid_from_its_order_and_serves_after_the_delay():
    """A burst orders a node at once; it is billed at once and serves only after the provisioning delay."""
    arrivals = np.zeros(600)
    arrivals[10:40] = 50.0
    hour = autoscaled_hour(arrivals, 1, 10.0, 16, 120.0, 0.05, 1.0, tpot_s=0.01, tpot_slo_s=0.1)
    ordered = int(np.argmax(hour.nodes_bought > 1))
    serving = int(np.argmax(hour.nodes_serving > 1))
    assert serving - ordered == 120
    assert np.all(hour.nodes_bought >= hour.nodes_serving)
    assert hour.usd == hour.nodes_bought.sum()


def test_provisioning_is_boot_plus_the_weights_at_the_storage_bandwidth():
    """16 GB of weights take 60 s of boot plus about 15 s of reading."""
    assert BOOT_S < provisioning_s(16e9) < BOOT_S + 16
    assert provisioning_s(140e9) > provisioning_s(16e9)


def test_on_the_code_hour_autoscaling_buys_goodput_that_renting_for_the_mean_lacks():
    """Sized for the code hour's mean, a fixed pool loses goodput; the autoscaler wins it back for more money."""
    mean, peak, scaled = compare_policies(Scenario(traffic="azure-code", arrivals_per_min=154.0))
    assert scaled.goodput > mean.goodput and scaled.usd > mean.usd
    assert peak.nodes_bought[0] >= mean.nodes_bought[0]
    assert all(0.0 <= row.goodput <= 1.0 for row in (mean, peak, scaled))
