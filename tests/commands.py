"""Running a management command in a test as a user runs it from the shell."""

from django.core.management import call_command


def run_command(capsys, name: str, *arguments) -> tuple[int, str, str]:
    """The command's exit status (0, or the code it exits with), its stdout and its stderr."""
    try:
        call_command(name, *map(str, arguments))
        code = 0
    except SystemExit as exit_:
        code = exit_.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err
