#!/usr/bin/env python3
"""Compare `muster pieces --format json` with VASSAL's recorded answers.

One save:
    compare.py EXPECTED.json MUSTER.json [--max N]

Whole fixtures (packs each module, runs muster on each of its saves):
    compare.py --muster BIN FIXTURE_DIR... [--data-root DIR] [--max N] [--json OUT]

Pieces are paired by piece id. The oracle lists an empty deck as a row of its
own (`in: empty-deck`); those rows are counted apart, not as pieces. For each pair the fields compared are name, map,
location, x,y, what holds the piece (stack, single, deck and the deck's name, or
no map) and its index in that holder. A save prints one line of counts, then the
first N disagreements (default 3) of each field, with VASSAL's value and
muster's. Fixture mode also prints a table per module and save and, with --json,
writes all counts. With --data-root, DIR/<slug>/ holds a fixture's files that
are kept outside the repository (buildFile, moduledata, saves).

Exit 0 only when every piece agrees on every field. Python 3 stdlib only.
"""

import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import pack  # noqa: E402

FIELDS = ("name", "map", "location", "xy", "in", "index")


def oracle_holder(p):
    """VASSAL's holder in muster's terms: (kind, deck name)."""
    where = p.get("in") or ""
    if where.startswith("deck:"):
        return ("deck", where[len("deck:"):])
    return ({"no-map": "nowhere"}.get(where, where), None)


def muster_holder(p):
    """muster's holder: (kind, deck name)."""
    kind = p.get("in")
    return (kind, p.get("deck") if kind == "deck" else None)


def values(p, side):
    """The compared fields of one piece, from the oracle's record or muster's JSON."""
    holder = oracle_holder(p) if side == "vassal" else muster_holder(p)
    return {
        "name": p.get("name"),
        "map": p.get("map"),
        "location": p.get("location"),
        "xy": (p.get("x"), p.get("y")),
        "in": holder,
        "index": p.get("index"),
    }


def compare(expected, muster_pieces):
    """Counts and disagreements of one save. `expected` is an expected/*.json record."""
    vassal = {p["id"]: p for p in expected["pieces"] if p.get("in") != "empty-deck"}
    mine = {p.get("id"): p for p in muster_pieces}
    counts = {"pieces": len(vassal), "muster_pieces": len(mine),
              "empty_decks": len(expected["pieces"]) - len(vassal),
              "paired": 0, "vassal_only": 0, "muster_only": 0}
    counts.update({f + "_equal": 0 for f in FIELDS})
    counts["all_equal"] = 0
    diffs = {f: [] for f in FIELDS}
    diffs["vassal_only"] = []
    diffs["muster_only"] = []
    for pid, vp in vassal.items():
        mp = mine.get(pid)
        if mp is None:
            counts["vassal_only"] += 1
            diffs["vassal_only"].append({"id": pid, "vassal": values(vp, "vassal"),
                                         "muster": None})
            continue
        counts["paired"] += 1
        a, b = values(vp, "vassal"), values(mp, "muster")
        same_all = True
        for f in FIELDS:
            if a[f] == b[f]:
                counts[f + "_equal"] += 1
            else:
                same_all = False
                diffs[f].append({"id": pid, "name": a["name"], "map": a["map"],
                                 "xy": a["xy"], "vassal": a[f], "muster": b[f]})
        counts["all_equal"] += 1 if same_all else 0
    for pid, mp in mine.items():
        if pid not in vassal:
            counts["muster_only"] += 1
            diffs["muster_only"].append({"id": pid, "vassal": None,
                                         "muster": values(mp, "muster")})
    return counts, diffs


def show(v):
    """A value as printed in a disagreement line."""
    if isinstance(v, tuple):
        if len(v) == 2 and v[1] is None:
            return str(v[0])
        if len(v) == 2 and isinstance(v[0], str):
            return "%s:%s" % v
        return "%s,%s" % v
    return json.dumps(v, ensure_ascii=False)


def print_save(title, counts, diffs, limit, out):
    """One counts line and the first disagreements of each kind."""
    n = counts["pieces"]
    parts = ["%s %d/%d" % (f, counts[f + "_equal"], n) for f in FIELDS]
    out.write("%s: %d pieces (muster %d), all fields %d/%d; %s; vassal-only %d, muster-only %d;"
              " empty decks %d\n"
              % (title, n, counts["muster_pieces"], counts["all_equal"], n, ", ".join(parts),
                 counts["vassal_only"], counts["muster_only"], counts["empty_decks"]))
    for kind, items in diffs.items():
        for d in items[:limit]:
            if kind in ("vassal_only", "muster_only"):
                out.write("  %s %s: vassal %s | muster %s\n"
                          % (kind, d["id"], json.dumps(d["vassal"], ensure_ascii=False,
                                                       default=list),
                             json.dumps(d["muster"], ensure_ascii=False, default=list)))
            else:
                out.write("  %s %s (%s on %s at %s): vassal %s | muster %s\n"
                          % (kind, d["id"], d["name"], d["map"], show(d["xy"]),
                             show(d["vassal"]), show(d["muster"])))
        if len(items) > limit:
            out.write("  %s: %d more\n" % (kind, len(items) - limit))


def muster_json(binary, save, vmod):
    """Run `muster pieces SAVE --module VMOD --format json`; return (exit code, pieces)."""
    proc = subprocess.run([binary, "pieces", save, "--module", vmod, "--format", "json"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    try:
        reports = json.loads(proc.stdout.decode("utf-8"))
    except ValueError:
        sys.stderr.write(proc.stderr.decode("utf-8", "replace")[-2000:])
        return proc.returncode, None
    return proc.returncode, report_pieces(reports)


def report_pieces(reports):
    """The pieces of muster's JSON: a list of reports (each with `pieces`), one report,
    or already a list of pieces."""
    items = reports if isinstance(reports, list) else [reports]
    if all(isinstance(r, dict) and "pieces" in r for r in items):
        return [p for r in items for p in r["pieces"]]
    return items


def run_fixtures(binary, fixtures, data_root, limit, json_out):
    """Fixture mode: every save of every fixture; a summary table at the end."""
    rows = []
    out = sys.stdout
    with tempfile.TemporaryDirectory() as tmp:
        for fixture in fixtures:
            slug = os.path.basename(os.path.normpath(fixture))
            data = os.path.join(data_root, slug) if data_root else None
            if data and not os.path.isdir(data):
                data = None
            vmod = pack.pack(fixture, tmp, data)
            exp_dir = os.path.join(fixture, "expected")
            for name in sorted(os.listdir(exp_dir)):
                save_name = name[:-len(".json")] + ".vsav"
                save = next((os.path.join(d, save_name) for d in (fixture, data)
                             if d and os.path.exists(os.path.join(d, save_name))), None)
                if save is None:
                    out.write("%s/%s: the save is missing\n" % (slug, save_name))
                    continue
                with open(os.path.join(exp_dir, name), encoding="utf-8") as f:
                    expected = json.load(f)
                code, pieces = muster_json(binary, save, vmod)
                if pieces is None:
                    out.write("%s/%s: muster gave no JSON (exit %d)\n" % (slug, save_name, code))
                    continue
                counts, diffs = compare(expected, pieces)
                counts.update({"module": slug, "save": save_name, "muster_exit": code})
                rows.append(counts)
                print_save("%s/%s (muster exit %d)" % (slug, save_name, code), counts, diffs,
                           limit, out)
    out.write("\n| module | save | pieces | location | name | map | x,y | holder | all |\n")
    out.write("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
    for r in rows:
        n = r["pieces"]
        out.write("| %s | %s | %d | %d | %d | %d | %d | %d | %d |\n"
                  % (r["module"], r["save"], n, r["location_equal"], r["name_equal"],
                     r["map_equal"], r["xy_equal"], r["in_equal"], r["all_equal"]))
    total = {k: sum(r[k] for r in rows) for k in ("pieces", "location_equal", "name_equal",
                                                  "all_equal")}
    out.write("| all | | %d | %d | %d | | | | %d |\n"
              % (total["pieces"], total["location_equal"], total["name_equal"],
                 total["all_equal"]))
    if json_out:
        with open(json_out, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1, sort_keys=True)
    return 0 if rows and all(r["all_equal"] == r["pieces"] and r["muster_only"] == 0
                             for r in rows) else 1


def take(args, flag, default=None):
    """Remove `flag VALUE` from args and return VALUE."""
    if flag in args:
        i = args.index(flag)
        if i + 1 >= len(args):
            raise SystemExit("compare.py: %s needs a value" % flag)
        value = args[i + 1]
        del args[i:i + 2]
        return value
    return default


def main(argv):
    """Parse arguments; compare one save or whole fixtures."""
    args = argv[1:]
    limit = int(take(args, "--max", "3"))
    binary = take(args, "--muster")
    data_root = take(args, "--data-root")
    json_out = take(args, "--json")
    if binary:
        if not args:
            sys.stderr.write(__doc__)
            return 2
        return run_fixtures(binary, args, data_root, limit, json_out)
    if len(args) != 2:
        sys.stderr.write(__doc__)
        return 2
    with open(args[0], encoding="utf-8") as f:
        expected = json.load(f)
    with open(args[1], encoding="utf-8") as f:
        reports = json.load(f)
    counts, diffs = compare(expected, report_pieces(reports))
    print_save(os.path.basename(args[0]), counts, diffs, limit, sys.stdout)
    return 0 if counts["all_equal"] == counts["pieces"] and counts["muster_only"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
