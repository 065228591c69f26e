"""The words of clusters (``classify --dask``) and of worker processes (``--jobs``)."""

from __future__ import annotations

from gbr_tui.core.text import printable

#: `classify --dask`: what the option takes, and what goes wrong with a cluster.
DASK_SPEC_WORDS = "--dask: expected a scheduler's address (tcp://host:8786) or local:N (N worker processes, 1 or more)"
DASK_MISSING = "--dask needs the optional extra: install gbr-tui[dask] (dask and distributed)"


def scheduler_unreachable_words(address: str, seconds: float, error: str) -> str:
    return f"--dask: no scheduler answered at {printable(address, 100)} within {seconds:g} s: {printable(error, 200)}"


def no_workers_words(address: str, seconds: float) -> str:
    return f"--dask: the scheduler at {printable(address, 100)} has no worker (none came within {seconds:g} s)"


def worker_died_words(file: str, error: str) -> str:
    return f"{file}: a Dask worker died while counting it: {printable(error, 200)}"


def unshared_file_words(file: str) -> str:
    return f"{file}: a Dask worker cannot open it: the files must be at the same path on every worker (a shared path)"


def cluster_lost_words(error: str) -> str:
    return f"--dask: the cluster was lost: {printable(error, 200)}"


def jobs_help_words(
    never_cut: list[str], batch_formats: str | None = None, batch_megabytes: int | None = None, records: bool = False
) -> str:
    """--jobs's help: the default (``batch_formats`` files from ``batch_megabytes`` a worker,
    when given; read in this process by default when the command takes back every ``records``
    in order), how a stream is shared out, and what is always read in one process
    (``never_cut``)."""
    batch = f", {batch_formats} files of {batch_megabytes} MB" if batch_megabytes is not None else ""
    if records and batch_formats:
        batch += f" ({batch_formats} files in this process" + (" with --per-record or --csv)" if batch else ")")
    alone = f"; {' and '.join(never_cut)} {'is' if len(never_cut) == 1 else 'are'} read in one" if never_cut else ""
    return (
        f"worker processes per file (default: one per core, for files of 1 MB a worker or more{batch}, "
        "a compressed file by its compressed size; 1 for a pipe; 1 reads in this process); a compressed "
        f"file or a pipe is decompressed and cut here while the workers classify{alone}"
    )


def process_died_words(file: str) -> str:
    return f"{file}: a worker process died while reading it (--jobs 1 reads it in this process)"


def one_process_words(file: str, reason: str) -> str:
    """Why a file given with --dask is read by this process, not the cluster."""
    return f"{file}: read in this process, not on the cluster: {reason}"


PER_RECORD_HERE_WORDS = "--per-record and --csv are written by this process, not on the cluster (--dask)"
