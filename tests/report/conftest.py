"""One line at the end of the run when the HTML report's browser tests could not run."""

from tests.report.browser import CHROMIUM


def pytest_terminal_summary(terminalreporter):
    if CHROMIUM is None:
        terminalreporter.write_line("wasplan: no chromium on PATH, the HTML report's browser tests were skipped "
                                    "(apt-get install chromium, or set WASPLAN_CHROMIUM)")
