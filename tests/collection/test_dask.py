"""`classify --dask`: the byte ranges of --jobs counted on a real local Dask cluster (two worker
processes) print exactly what one process prints; a missing extra, a scheduler that does not
answer and a worker that dies are clear messages."""

from __future__ import annotations

import gzip
import socket
import subprocess
import sys

import pytest
import zstandard

from gbr_tui.core.code import Rule
from gbr_tui.core.collection import Collection, CollectionRequest, parallel
from gbr_tui.core.collection.cluster import ClusterError, connected, tally_on
from tests.support.process import run_gbr
from tests.support.seeded import bad_middle_file, mixed_file

KR_V_K = "8/8/8/4k3/8/8/8/KR6 w - - 0 1"  # spec: KR v K is 0100

distributed = pytest.importorskip("distributed", reason="dask is not installed (the gbr-tui[dask] extra)")


@pytest.fixture(scope="module")
def cluster():
    """Two worker processes of one thread each, started once for the module."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address="127.0.0.1:0"
    ) as local:
        yield local


def ranges_counted(cluster) -> int:
    """How many byte ranges the cluster's workers have counted so far."""
    prefix = cluster.scheduler.task_prefixes.get("tally_range")
    return 0 if prefix is None else prefix.state_counts["memory"]


@pytest.mark.parametrize(
    ("kind", "options"),
    [
        ("pgn", ["--position", "all", "--min-plies", "3"]),
        ("fen", []),
        # The other positions and formats: the same cutting and merging, in the slow part.
        pytest.param("pgn", ["--position", "start"], marks=pytest.mark.slow),
        pytest.param("pgn", ["--position", "final"], marks=pytest.mark.slow),
        pytest.param("epd", [], marks=pytest.mark.slow),
    ],
)
def test_the_cluster_prints_what_one_process_prints(cluster, tmp_path, kind: str, options: list[str]) -> None:
    path = mixed_file(tmp_path, kind)
    one = run_gbr("classify", "--jobs", "1", *options, str(path))
    before = ranges_counted(cluster)
    on_cluster = run_gbr("classify", "--dask", cluster.scheduler_address, *options, str(path))
    assert "record" in one.stderr  # there are bad records to number
    assert (on_cluster.status, on_cluster.stdout, on_cluster.stderr) == (one.status, one.stdout, one.stderr)
    assert ranges_counted(cluster) - before >= 2  # one range per worker at least: the file was cut


def test_a_range_may_start_with_many_bad_records(cluster, tmp_path) -> None:
    path = bad_middle_file(tmp_path)
    one = run_gbr("classify", "--jobs", "1", str(path))
    on_cluster = run_gbr("classify", "--dask", cluster.scheduler_address, str(path))
    assert "classified 80 + bad 40" in one.stderr
    assert (on_cluster.status, on_cluster.stdout, on_cluster.stderr) == (one.status, one.stdout, one.stderr)


def test_local_starts_its_own_cluster(tmp_path) -> None:
    path = mixed_file(tmp_path, "epd")
    one = run_gbr("classify", "--jobs", "1", str(path))
    local = run_gbr("classify", "--dask", "local:2", str(path))
    assert (local.status, local.stdout, local.stderr) == (one.status, one.stdout, one.stderr)


def test_many_files_compressed_or_not_are_tasks_on_the_cluster(cluster, tmp_path) -> None:
    # A year of monthly files, in small: compressed ones are a task each, which the worker
    # decompresses; every file's tasks are handed out before the first result is read.
    plain = mixed_file(tmp_path, "pgn")
    text = plain.read_bytes()
    (tmp_path / "b.pgn.gz").write_bytes(gzip.compress(text))
    (tmp_path / "c.pgn.zst").write_bytes(zstandard.ZstdCompressor().compress(text))
    files = [str(plain), str(tmp_path / "b.pgn.gz"), str(tmp_path / "c.pgn.zst")]
    one = run_gbr("classify", "--jobs", "1", "--position", "final", *files)
    before = ranges_counted(cluster)
    on_cluster = run_gbr("classify", "--dask", cluster.scheduler_address, "--position", "final", *files)
    assert "c.pgn.zst:" in one.stderr  # bad records of the last file, numbered in it
    assert (on_cluster.status, on_cluster.stdout, on_cluster.stderr) == (one.status, one.stdout, one.stderr)
    assert ranges_counted(cluster) - before >= 2 + 1 + 1  # the plain file cut, each compressed one whole


def test_stdin_is_read_here_and_says_so(cluster) -> None:
    result = run_gbr("classify", "--dask", cluster.scheduler_address, "-", stdin=(KR_V_K + "\n") * 100)
    assert "<stdin>: read in this process, not on the cluster: a pipe or stdin" in result.stderr
    assert "0100.00" in result.stdout and "classified 100" in result.stderr


def test_per_record_is_written_here_and_says_so(tmp_path) -> None:
    path = tmp_path / "one.fen"
    path.write_text(KR_V_K + "\n")
    result = run_gbr("classify", "--per-record", "--dask", "local:2", str(path))
    assert "--per-record and --csv are written by this process, not on the cluster" in result.stderr
    assert '"code": "0100.00"' in result.stdout


def test_an_unreachable_scheduler_is_a_message(tmp_path) -> None:
    with socket.socket() as free:  # a port on this machine nothing listens on once it is closed
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    with pytest.raises(ClusterError) as raised, connected(f"tcp://127.0.0.1:{port}", timeout=1):
        pass
    assert f"no scheduler answered at tcp://127.0.0.1:{port} within 1 s" in raised.value.message


def test_a_scheduler_without_workers_is_a_message() -> None:
    with (
        distributed.LocalCluster(
            n_workers=0, processes=True, host="127.0.0.1", dashboard_address="127.0.0.1:0"
        ) as empty,
        pytest.raises(ClusterError) as raised,
        connected(empty.scheduler_address, timeout=1),
    ):
        pass
    assert (
        raised.value.message
        == f"--dask: the scheduler at {empty.scheduler_address} has no worker (none came within 1 s)"
    )


def test_a_file_the_workers_cannot_open_is_a_message(cluster, tmp_path) -> None:
    path = mixed_file(tmp_path, "fen")
    with distributed.Client(cluster) as client, Collection(path) as collection:
        ranges = parallel.byte_ranges(collection, str(path), 2, at_least=1)
        path.unlink()  # as on a worker that does not share this machine's files
        with pytest.raises(ClusterError) as raised:
            list(tally_on(client, collection, str(path), CollectionRequest((str(path),)), ranges, Rule.COUNT))
    assert "mixed.fen: a Dask worker cannot open it: the files must be at the same path on every worker" in (
        raised.value.message
    )


@pytest.mark.parametrize("spec", ["local:0", "local:two", " "])
def test_a_bad_dask_option_is_a_usage_error(tmp_path, spec: str) -> None:
    path = tmp_path / "one.fen"
    path.write_text(KR_V_K + "\n")
    result = run_gbr("classify", "--dask", spec, str(path))
    assert result.status == 2 and "--dask: expected a scheduler's address" in result.stderr


def test_jobs_and_dask_are_one_or_the_other(tmp_path) -> None:
    path = tmp_path / "one.fen"
    path.write_text(KR_V_K + "\n")
    result = run_gbr("classify", "--jobs", "2", "--dask", "local:2", str(path))
    assert result.status == 2 and "--dask: not allowed with argument --jobs" in result.stderr


def test_without_the_extra_the_message_says_what_to_install(tmp_path) -> None:
    path = tmp_path / "one.fen"
    path.write_text(KR_V_K + "\n")
    script = (
        "import sys; sys.modules['distributed'] = None\n"  # as if the extra were not installed
        "from gbr_tui.__main__ import main\n"
        f"sys.argv = ['gbr-tui', 'classify', '--dask', 'local:2', {str(path)!r}]\n"
        "sys.exit(main())\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "install gbr-tui[dask]" in done.stderr


def _die_when_counting() -> None:
    """In a worker: its next range kills the worker process."""
    import os

    parallel._tally_range = parallel.tally_range
    parallel.tally_range = lambda *args: os._exit(1)


def _count_again() -> None:
    parallel.tally_range = getattr(parallel, "_tally_range", parallel.tally_range)


def test_a_worker_that_dies_is_a_message(cluster, tmp_path) -> None:
    path = mixed_file(tmp_path, "fen")
    scheduler = cluster.scheduler
    allowed = scheduler.allowed_failures
    with distributed.Client(cluster) as client:
        scheduler.allowed_failures = 0  # the first death fails the task (the default retries 3 times)
        client.run(_die_when_counting)
        try:
            with Collection(path) as collection, pytest.raises(ClusterError) as raised:
                ranges = parallel.byte_ranges(collection, str(path), 2, at_least=1)
                list(tally_on(client, collection, str(path), CollectionRequest((str(path),)), ranges, Rule.COUNT))
        finally:
            scheduler.allowed_failures = allowed
            # The dead worker's replacement counts as it should already; the dead one, if the
            # scheduler still lists it, cannot be told (its connection is reset): left alone.
            client.run(_count_again, on_error="ignore")
    assert "mixed.fen: a Dask worker died while counting it" in raised.value.message
