import resource, time, json
import pytest
pytestmark = pytest.mark.django_db

def pools(n, gpus, planes=1):
    return {"name": "p", "pools": [{"name": f"p{i}", "system": "dgx-b300", "gpus": gpus} for i in range(n)],
            "fabrics": {"compute": {"switch": "q3400", "planes": planes}, "oob": {"switch": "sn2201", "spine_switch": "sn4600c"}}}

def phases(n, final):
    return {"name": "ph", "pools": [{"name": "compute", "system": "dgx-b300", "gpus": final}],
            "fabrics": {"compute": {"switch": "q3400"}},
            "phases": [{"name": f"f{i}", "start": f"{2026 + i // 12}-{i % 12 + 1:02d}-01", "pools": {"compute": {"gpus": max(8, final * (i + 1) // n)}}} for i in range(n)],
            "growth": "per_phase"}

def own(n, gpus, planes=1, **extra):
    return {"name": "p", "pools": [{"name": f"p{i}", "system": "dgx-b300", "gpus": gpus, "fabric": {"switch": "q3400", "planes": planes}} for i in range(n)], **extra}

CASES = {
  "100own8k": own(100, 8000),
  "100own2k_oob": own(100, 2000, fabrics={"oob": {"switch": "sn2201", "spine_switch": "sn4600c"}, "storage": {"switch": "q3400"}}),
  "50phases_final": {**phases(50, 240000), "growth": "final"},
  "100pools": pools(100, 8000),
  "100pools_small": pools(100, 800),
  "50phases": phases(50, 240000),
  "10M": {"name": "big", "compute": {"system": "dgx-b300", "gpus": 10_000_000}},
}

@pytest.mark.parametrize("case", list(CASES))
def test_measure(api, case):
    api.post("/api/v1/plan/", {"name": "warm", "compute": {"system": "dgx-b300", "nodes": 1}}, format="json")
    t = time.process_time(); w = time.perf_counter()
    r = api.post("/api/v1/plan/", CASES[case], format="json")
    print(case, r.status_code, len(r.content), "cpu", round(time.process_time() - t, 2), "wall", round(time.perf_counter() - w, 2), "maxrss MB", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, r.content[:300])
