"""Run background jobs (heavy exports, sweeps) until stopped: `manage.py runworker`."""

import signal

from django.core.management.base import BaseCommand

from jobs.worker import Worker


class Command(BaseCommand):
    help = (
        "Run queued background jobs one at a time, until SIGTERM or Ctrl-C (a job then running "
        "goes back to the queue). On start, fails the jobs left running by a worker that died. "
        "Start more than one for jobs in parallel: each job is claimed by one worker only."
    )

    def add_arguments(self, parser):
        parser.add_argument("--poll-interval", type=float, default=1.0,
                            help="Seconds between looks at an empty queue (default 1).")

    def handle(self, *args, poll_interval, **options):
        worker = Worker(poll_interval_s=poll_interval)

        def stop(signum, frame):
            worker.stop.set()

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        stale, _ = worker.housekeeping()
        self.stdout.write(
            f"Worker {worker.name} running background jobs"
            + (f" ({stale} left running by a dead worker failed)" if stale else "")
        )
        self.stdout.flush()
        worker.run_forever()
        self.stdout.write(f"Worker {worker.name} stopped")
