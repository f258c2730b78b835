"""The operator's configuration in the repository (``ops/``, ``docker-compose.yml``): Prometheus's alert rules and
scrape configuration, Grafana's provisioning and dashboard are well-formed, and every ``burrow_*`` metric they
name is one Burrow exports (read from a real scrape, not from a list kept by hand)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml
from prometheus_client.parser import text_string_to_metric_families

from burrow.runtime import build
from services.config import Settings
from tests.web.site import Site

ROOT = Path(__file__).resolve().parent.parent
OPS = ROOT / "ops"
NAME = re.compile(r"\bburrow_[a-z_]+")
SUFFIXES = ("_bucket", "_count", "_sum", "_total", "_created")


def exported(tmp_path) -> set[str]:
    """Every metric family a scrape shows, with the sample names of each (``_total``, ``_bucket``…)."""
    rt = build(Settings(prefix="opscheck", data_dir=str(tmp_path)), journal=False)
    site = Site(rt)
    try:
        created = site.post("/api/games", json={"game": "murus", "players": [{"name": "A"}, {"name": "B"}]}).json
        site.post(f"/api/games/{created['id']}/commands", json={"move": "a1-a3"},
                  headers={"Authorization": f"Bearer {created['seats'][0]['token']}"})
        text = site.get("/metrics").get_data(as_text=True)
    finally:
        site.close()
    names = set()
    for family in text_string_to_metric_families(text):
        names.add(family.name)
        names.update(family.name + suffix for suffix in SUFFIXES)
    return names


def named(expr: str) -> set[str]:
    return set(NAME.findall(expr))


def test_alert_rules_are_well_formed_and_name_exported_metrics(tmp_path):
    rules = yaml.safe_load((OPS / "prometheus" / "alerts.yml").read_text())
    known = exported(tmp_path)
    alerts = [rule for group in rules["groups"] for rule in group["rules"]]
    names = {rule["alert"] for rule in alerts}
    # What the operator must know (issue #43): each has a rule.
    assert {"BurrowCommandsFailing", "BurrowProjectionsLagging", "BurrowQueueGrowing", "BurrowWorkerGone",
            "BurrowRedisNearMaxmemory"} <= names
    for rule in alerts:
        assert set(rule) <= {"alert", "expr", "for", "labels", "annotations"}, rule["alert"]
        assert rule["annotations"]["summary"] and rule["labels"]["severity"] in ("page", "warn")
        expr = rule["expr"]
        assert expr.count("(") == expr.count(")") and expr.count("{") == expr.count("}"), rule["alert"]
        assert named(expr) <= known, (rule["alert"], named(expr) - known)
        if "for" in rule:
            assert re.fullmatch(r"\d+[smh]", rule["for"]), rule["alert"]


def test_dashboard_and_provisioning(tmp_path):
    known = exported(tmp_path)
    dashboard = json.loads((OPS / "grafana" / "dashboards" / "burrow.json").read_text())
    exprs = [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]
    assert exprs and all(named(e) for e in exprs)
    for expr in exprs:
        assert named(expr) <= known, (expr, named(expr) - known)
    for metric in ("burrow_commands_total", "burrow_command_seconds_bucket", "burrow_http_requests_total",
                   "burrow_live_streams", "burrow_projection_lag_seconds_bucket", "burrow_queue_jobs",
                   "burrow_job_seconds_bucket"):
        assert any(metric in e for e in exprs), metric
    source = yaml.safe_load((OPS / "grafana" / "provisioning" / "datasources" / "prometheus.yml").read_text())
    uids = {d["uid"] for d in source["datasources"]}
    assert all(panel["datasource"]["uid"] in uids for panel in dashboard["panels"])
    scrape = yaml.safe_load((OPS / "prometheus" / "prometheus.yml").read_text())
    assert scrape["scrape_configs"][0]["metrics_path"] == "/metrics"
    assert scrape["rule_files"] == ["/etc/prometheus/alerts.yml"]


def test_compose_mounts_what_ops_holds():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    mounted = [v.split(":")[0] for name in ("prometheus", "grafana") for v in services[name]["volumes"]]
    for path in (p for p in mounted if p.startswith("./")):
        assert (ROOT / path).exists(), path
    for name in ("web", "worker-project", "worker-ai", "dispatcher"):  # one metrics directory for them all
        assert services[name]["environment"]["PROMETHEUS_MULTIPROC_DIR"] == "/metrics"
        assert "metrics:/metrics" in services[name]["volumes"]
    assert "web" in services["web"]["environment"]["BURROW_ALLOWED_HOSTS"].split(",")
