"""``storplan evaluate --json`` of the default example imports only what it runs: the queueing package's solvers and
records (the engine runs its own kernels), the SQLite side of the project store and its records (a TOML project), the
pooled software fit (a current release); and the JSON it prints is the text ``json.dumps(..., indent=2)`` gives. Each
module below still loads when first asked for."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from app.gui.project_io import DEFAULT_EXAMPLE

_PROBE = textwrap.dedent(f"""
    import contextlib, io, json, sys
    from app.cli import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["evaluate", {DEFAULT_EXAMPLE.removesuffix(".toml")!r}, "--json"])
    data = json.loads(out.getvalue())
    same = out.getvalue() == json.dumps(data, indent=2) + "\\n"
    from models.bounded_read import _toml_token, toml_line
    from models.capacity.reduction_band import _name_types
    from models.formatting import _natural_chunk
    compiled = [f.__name__ for f in (_toml_token, toml_line, _name_types, _natural_chunk) if f.cache_info().currsize]
    print(json.dumps({{"status": status, "same": same, "modules": sorted(sys.modules), "compiled": compiled}}))
""")

LAZY = (
    # models.queueing: the package loads none of its modules (models/queueing/__init__.py)
    "models.queueing.bounds", "models.queueing.closed_network", "models.queueing.open_network",
    "models.queueing.erlang", "models.queueing.results", "models.queueing._network",
    # models.store: a TOML project needs neither SQLite nor the codec, the lock or recovery (models/store/textio.py)
    "models.store.files", "models.store.codec", "models.store.lock", "models.store.recovery",
    "models.store.schema", "models.store.records", "sqlite3",
    # the pooled software fit: only a platform older than every calibrated release needs it (hardware_relation.py)
    "models.performance.pooled_fit",
    # (models.present.citations is needed since review 54: the JSON cites its sources as the report does, about
    # 14 ms of CPU, app/cli.py customer_sources)
    # the TOML writer: a command that reads a project writes no TOML (models/project/textformat.py,
    # models/user_catalog.py)
    "tomli_w",
    # numpy's typing module (its documentation built at import): the engines' annotations only (queueing/arrays.py)
    "numpy.typing",
)


@pytest.fixture(scope="module")
def evaluated() -> dict:
    done = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_evaluation_ran_and_printed_json_dumps_text(evaluated):
    assert evaluated["status"] in (0, 1)
    assert evaluated["same"] is True
    assert "models.performance.engine" in evaluated["modules"]  # the probe saw a real evaluation's imports


@pytest.mark.parametrize("module", LAZY)
def test_evaluate_json_of_the_default_example_does_not_import(evaluated, module):
    assert module not in evaluated["modules"]


def test_evaluate_json_of_the_default_example_compiles_no_pattern_it_does_not_use(evaluated):
    """Patterns compiled on first use: the TOML error scanners (a file the parser could not read), the workload
    name words (a workload of no bundled preset), the natural sort key (the desktop app)."""
    assert evaluated["compiled"] == []


def test_the_patterns_compiled_on_first_use_still_find_what_they_did():
    from models.bounded_read import FileRefusedError, parse_toml, toml_too_deep
    from models.capacity.reduction_band import workload_type
    from models.formatting import natural_key
    from models.project.textformat import load
    from models.resources import examples_dir

    assert toml_too_deep("a = [[[1]]]\n", 2) == 1 and toml_too_deep("a = '[[['\n", 2) is None
    with pytest.raises(FileRefusedError, match="line 2: column 5: not valid TOML"):
        parse_toml("a = 1\nb = \n", "f.toml")
    assert sorted(["15.3TB", "960GB", "1.9TB"], key=natural_key) == ["960GB", "1.9TB", "15.3TB"]
    workload = load(examples_dir() / DEFAULT_EXAMPLE).scenarios[0].workloads[0].with_changes(preset=None)
    named = {name: workload_type(workload.with_changes(name=name))
             for name in ("VDI pool", "SQL Server prod", "Hadoop", "Backup", "Team shares")}
    assert named == {"VDI pool": "vdi", "SQL Server prod": "database", "Hadoop": "analytics", "Backup": "media",
                     "Team shares": "file"}


def test_the_lazy_packages_still_offer_every_name():
    probe = textwrap.dedent("""
        import importlib, json, sys
        import models.queueing as queueing, models.store as store
        before = sorted(m for m in sys.modules if m.startswith(("models.queueing.", "models.store.")))
        ok = all(getattr(p, n) is getattr(importlib.import_module(f"{p.__name__}.{m}"), n)
                 for p in (queueing, store) for n, m in p._EXPORTS.items())
        print(json.dumps({"before": before, "ok": ok, "all": set(queueing.__all__) == set(queueing._EXPORTS)
                          and set(store.__all__) == set(store._EXPORTS)}))
    """)
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    probe_out = json.loads(done.stdout.strip().splitlines()[-1])
    assert probe_out["before"] == []  # importing either package loads none of its modules
    assert probe_out["ok"] is True and probe_out["all"] is True


_THREADS_PROBE = textwrap.dedent(f"""
    import contextlib, io, json, os, sys
    sys.argv = ["storplan", "evaluate", {DEFAULT_EXAMPLE.removesuffix(".toml")!r}, "--json"]
    from app.cli import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main()  # as the console script calls it: the process's own start
    print(json.dumps({{"threads": os.environ.get("OPENBLAS_NUM_THREADS"), "text": out.getvalue()}}))
""")


def _threads_run(**settings: str) -> dict:
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS",
                                                             "OMP_NUM_THREADS")}
    done = subprocess.run([sys.executable, "-c", _THREADS_PROBE], capture_output=True, text=True, timeout=120,
                          env={**env, **settings})
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_command_asks_openblas_for_one_thread_unless_the_user_chose_and_the_numbers_do_not_change():
    """``app.quiet_start.single_threaded_blas``: one OpenBLAS thread (its start cost ~60 ms a command), a user's
    own choice kept; the evaluation prints the same text with two threads."""
    default = _threads_run()
    assert default["threads"] == "1"
    chosen = _threads_run(OMP_NUM_THREADS="2")
    assert chosen["threads"] is None  # the user's OMP_NUM_THREADS decides: nothing set over it
    assert chosen["text"] == default["text"] and default["text"].startswith("{")


def test_the_record_types_cost_pydantic_no_compile_and_no_signature_parse():
    """The project's and the catalog's record types (built at every start) are defined without string annotations
    (pydantic compiles each one) and without a builtin default factory (pydantic parses its text signature): about
    10 ms of every command (models/project/model.py)."""
    import builtins

    import models.catalog.schema as schema
    import models.project.model as model

    for module in (model, schema):
        assert "annotations" not in vars(module), f"{module.__name__} imports annotations from __future__"
    factories = {name: info.default_factory for cls in vars(model).values()
                 if isinstance(cls, type) and cls.__module__ == model.__name__ and hasattr(cls, "__pydantic_fields__")
                 for name, info in cls.__pydantic_fields__.items() if info.default_factory is not None}
    assert factories  # the types were read
    assert not [n for n, f in factories.items() if f in vars(builtins).values()]
