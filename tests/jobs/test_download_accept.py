import pytest

from jobs.services import job_enqueue
from jobs.worker import Worker

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("accept", ["application/octet-stream", "text/plain", "*/*", "application/json"])
def test_a_result_downloads_whatever_the_client_accepts_and_errors_stay_json(user_api, user, accept):
    job = job_enqueue(owner=user, kind="write_text", parameters={"text": "abc"})
    url = f"/api/v1/jobs/{job.pk}/download/"
    waiting = user_api.get(url, HTTP_ACCEPT=accept)
    assert waiting.status_code == 409
    assert waiting.json() == {"errors": {"detail": ["the job is queued, not done"]}}
    Worker().run_once()
    done = user_api.get(url, HTTP_ACCEPT=accept)
    assert done.status_code == 200
    assert b"".join(done.streaming_content) == b"abc"
