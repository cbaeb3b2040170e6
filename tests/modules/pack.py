#!/usr/bin/env python3
"""Zip a module fixture folder into a .vmod that VASSAL loads.

    pack.py FIXTURE_DIR OUT_DIR [--data DATA_DIR]

Writes OUT_DIR/<slug>.vmod, <slug> being FIXTURE_DIR's folder name. Every file
of FIXTURE_DIR goes in, at its path relative to the folder, except SOURCE.md,
expected/ and the saves (*.vsav) that no PredefinedSetup of the buildFile names
(a predefined setup is a save inside the module, so it goes in). With --data, the files of DATA_DIR (for
example the module's buildFile and moduledata kept outside the repository) are
added the same way; a file present in both is taken from DATA_DIR.

Deterministic: entries sorted by name, one fixed timestamp (1980-01-01 00:00),
fixed permissions, DEFLATE level 9. Prints the path of the written file.
Python 3 standard library only.
"""

import os
import re
import sys
import zipfile

FIXED_TIME = (1980, 1, 1, 0, 0, 0)
SKIPPED_FILES = {"SOURCE.md"}
SKIPPED_DIRS = {"expected"}


def setup_files(paths):
    """Save names that a PredefinedSetup of the buildFile among `paths` names."""
    names = set()
    for name in ("buildFile.xml", "buildFile"):
        if name in paths:
            with open(paths[name], encoding="utf-8", errors="replace") as f:
                text = f.read()
            for tag in re.findall(r"<VASSAL\.build\.module\.PredefinedSetup\b[^>]*>", text):
                m = re.search(r'\sfile="([^"]*)"', tag)
                if m and m.group(1):
                    names.add(m.group(1).lstrip("/"))
    return names


def module_files(folder):
    """Map of archive name -> path for the files of `folder` that may go in a .vmod."""
    found = {}
    for root, dirs, files in os.walk(folder):
        rel_root = os.path.relpath(root, folder)
        if rel_root == ".":
            dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS]
        for name in files:
            rel = os.path.normpath(os.path.join(rel_root, name)).replace(os.sep, "/")
            if rel in SKIPPED_FILES:
                continue
            found[rel] = os.path.join(root, name)
    return found


def pack(fixture, out_dir, data_dir=None):
    """Write the .vmod and return its path."""
    entries = module_files(fixture)
    if data_dir:
        entries.update(module_files(data_dir))
    setups = setup_files(entries)
    entries = {n: p for n, p in entries.items()
               if not n.lower().endswith(".vsav") or n in setups}
    if not any(n in entries for n in ("buildFile", "buildFile.xml")):
        raise SystemExit("pack.py: %s has no buildFile or buildFile.xml%s" % (
            fixture, "" if data_dir else " (give --data DIR if it is kept elsewhere)"))
    slug = os.path.basename(os.path.normpath(fixture))
    os.makedirs(out_dir, exist_ok=True)
    target = os.path.join(out_dir, slug + ".vmod")
    with zipfile.ZipFile(target, "w") as z:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            with open(entries[name], "rb") as f:
                z.writestr(info, f.read(), compresslevel=9)
    return target


def main(argv):
    """Parse arguments and pack."""
    args = argv[1:]
    data_dir = None
    if "--data" in args:
        i = args.index("--data")
        if i + 1 >= len(args):
            sys.stderr.write(__doc__)
            return 2
        data_dir = args[i + 1]
        del args[i:i + 2]
    if len(args) != 2:
        sys.stderr.write(__doc__)
        return 2
    print(pack(args[0], args[1], data_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
