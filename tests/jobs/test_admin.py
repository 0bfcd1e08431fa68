import pytest

from jobs.services import job_enqueue

pytestmark = pytest.mark.django_db


def test_staff_see_jobs_in_the_admin_without_editing_them(client, django_user_model):
    staff = django_user_model.objects.create_superuser("root", password="x" * 12)
    job = job_enqueue(owner=staff, kind="write_text", parameters={"text": "a"}, title="A text")
    client.force_login(staff)
    assert "A text" in client.get("/admin/jobs/job/").content.decode()
    page = client.get(f"/admin/jobs/job/{job.pk}/change/").content.decode()
    assert "A text" in page and 'name="_save"' not in page
    assert client.get("/admin/jobs/job/add/").status_code == 403
