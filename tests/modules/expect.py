#!/usr/bin/env python3
"""Record (or check) VASSAL's own answers for every save of a module fixture.

    expect.py FIXTURE_DIR [--data DATA_DIR] [--check] [--run RUN_SH]

Packs the fixture (pack.py), loads each save FIXTURE_DIR/*.vsav into VASSAL
3.7.26 with the oracle (`run.sh MODULE SAVE --no-render --json OUT`) and writes
FIXTURE_DIR/expected/<save name>.json: the oracle's verdict, its findings and,
per piece, name, id, map, x, y, location, in and index. With --check, nothing is
written: the fresh answers are compared with the recorded ones and any
difference is printed (exit 1).

RUN_SH defaults to ../shared/tools/vassal/run.sh seen from the repository root
(the layout CI has), else /work/shared/tools/vassal/run.sh.
Python 3 standard library only.
"""

import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import pack  # noqa: E402

PIECE_FIELDS = ("name", "id", "map", "x", "y", "location", "in", "index")
ISSUE_FIELDS = ("level", "source", "phase", "text")


def default_run_sh():
    """The oracle's run.sh: beside the repository (CI) or in /work/shared."""
    repo_root = os.path.dirname(os.path.dirname(HERE))
    for candidate in (os.path.join(repo_root, "..", "shared", "tools", "vassal", "run.sh"),
                      "/work/shared/tools/vassal/run.sh"):
        if os.path.exists(candidate):
            return os.path.normpath(candidate)
    raise SystemExit("expect.py: no run.sh found; give --run PATH")


def stable_issues(issues, module_file):
    """The findings without the run's own traces: the packed module's temporary path becomes
    its file name, the INFO records of dialogs are left out (the side wizard's text depends
    on timing), and they are sorted (the oracle's order varies from run to run)."""
    out = []
    for i in issues:
        if i.get("level") == "INFO" and i.get("source") == "dialog":
            continue
        item = {k: i.get(k) for k in ISSUE_FIELDS}
        if module_file and isinstance(item["text"], str):
            item["text"] = item["text"].replace(module_file, os.path.basename(module_file))
        out.append(item)
    return sorted(out, key=lambda i: tuple(str(i[k]) for k in ("phase", "level", "source",
                                                                 "text")))


def trim(report):
    """The parts of an oracle report that the corpus keeps."""
    game = report.get("game") or {}
    module = report.get("module") or {}
    return {
        "oracle": "VASSAL 3.7.26",
        "verdict": report.get("verdict"),
        "error_count": report.get("error_count"),
        "note_count": report.get("note_count"),
        "issues": stable_issues(report.get("issues", []), report.get("module_file")),
        "maps": [{"name": m.get("name"), "class": m.get("class"),
                  "boards": m.get("boards")} for m in module.get("maps", [])],
        "boards_in_play": game.get("maps"),
        "pieces": [{k: p.get(k) for k in PIECE_FIELDS} for p in game.get("pieces", [])],
    }


def run_oracle(run_sh, vmod, save, out_json):
    """Run the oracle on one save; return the parsed JSON report."""
    proc = subprocess.run([run_sh, vmod, save, "--no-render", "--json", out_json],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if proc.returncode not in (0, 1) or not os.path.exists(out_json):
        sys.stderr.write(proc.stdout.decode("utf-8", "replace")[-2000:])
        sys.stderr.write(proc.stderr.decode("utf-8", "replace")[-2000:])
        raise SystemExit("expect.py: the oracle failed on %s (exit %d)" % (save, proc.returncode))
    with open(out_json, encoding="utf-8") as f:
        return json.load(f)


def dumps(record):
    """Stable JSON text for a record."""
    return json.dumps(record, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv):
    """Record or check the expected answers of one fixture."""
    args = argv[1:]
    opts = {}
    for flag in ("--data", "--run"):
        if flag in args:
            i = args.index(flag)
            opts[flag] = args[i + 1]
            del args[i:i + 2]
    check = "--check" in args
    args = [a for a in args if a != "--check"]
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    fixture = args[0]
    run_sh = opts.get("--run") or default_run_sh()
    saves = sorted(n for n in os.listdir(fixture) if n.lower().endswith(".vsav"))
    exp_dir = os.path.join(fixture, "expected")
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        vmod = pack.pack(fixture, tmp, opts.get("--data"))
        for save in saves:
            report = run_oracle(run_sh, vmod, os.path.join(fixture, save),
                                os.path.join(tmp, "report.json"))
            text = dumps(trim(report))
            target = os.path.join(exp_dir, save[:-len(".vsav")] + ".json")
            if check:
                with open(target, encoding="utf-8") as f:
                    same = f.read() == text
                print("%s %s" % ("same" if same else "DIFFERENT", target))
                failed += 0 if same else 1
            else:
                os.makedirs(exp_dir, exist_ok=True)
                with open(target, "w", encoding="utf-8") as f:
                    f.write(text)
                print("%s: %s, %d pieces" % (target, report.get("verdict"),
                                             len((report.get("game") or {}).get("pieces", []))))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
