#!/usr/bin/env python3
"""Second opinion on a module muster wrote, from the independent `pywargame` reader.

    python check_vmod.py GAME.vmod MODULE.json

MODULE.json is muster's own account of each predefined setup (scenario, file, and every
piece with its map, location name and reduced flag). This script reads the module only
through pywargame and checks:

  * every image a piece, prototype or board names is in the archive;
  * every prototype a piece names is defined;
  * gpids are unique integers below nextPieceSlotId;
  * every predefined setup file exists and every saved piece decodes to a trait chain
    ending in a BasicPiece whose gpid is a palette gpid;
  * every piece muster says a setup holds stands where pywargame's own grid numbering
    puts its location (hexes), or inside the zone of that name (holding boxes).

Prints one line per problem and a summary; exits 1 on any problem.
"""
import contextlib
import io
import json
import sys
from collections import Counter, defaultdict

from pywargame.vassal import BuildFile, SaveIO, VMod, WithTraits

TOLERANCE = 2  # pixels: pywargame rounds centres, VASSAL truncates them


def quiet(fn, *a):
    with contextlib.redirect_stdout(io.StringIO()):
        return fn(*a)


def traits_of(el):
    node = el._node
    code = node.childNodes[0].nodeValue if node.childNodes else ''
    return quiet(WithTraits.decodeAdd2, code)[1] if code else []


def kids(node, suffix):
    return [n for n in node.childNodes if getattr(n, 'tagName', '').endswith(suffix)]


def main(vmod_path, expect_path):
    problems = []
    with VMod(vmod_path, 'r') as vmod:
        files = set(vmod.getFileNames())
        build = BuildFile(vmod.getBuildFile())
        game = build.getGame()
        setups = [s for s in game.getPredefinedSetups(asdict=False)
                  if s['useFile'] == 'true' and s['file']]
        blobs = vmod.getFiles(*[s['file'] for s in setups if s['file'] in files])

    protos = {}
    for cont in game.getPrototypes(single=False) or []:
        protos.update(cont.getPrototypes(asdict=True))
    slots = game.getPieces(asdict=False)
    owners = [('prototype ' + n, p) for n, p in protos.items()]
    owners += [('piece ' + s['entryName'], s) for s in slots]
    for who, el in owners:
        traits = traits_of(el)
        if not traits or traits[-1].ID != 'piece':
            problems.append(f'{who}: last trait is not a BasicPiece')
            continue
        for t in traits:
            if t.ID == 'prototype' and t['name'] not in protos:
                problems.append(f'{who}: prototype {t["name"]!r} is not defined')
            images = [t['filename']] if t.ID == 'piece' and t['filename'] else []
            if t.ID == 'emb2':
                images += [i for i in t['images'].split(',') if i]
            for img in images:
                if 'images/' + img not in files:
                    problems.append(f'{who}: image {img!r} is not in the archive')
    gpids = [s['gpid'] for s in slots]
    for g, k in Counter(gpids).items():
        if k > 1:
            problems.append(f'gpid {g} is used by {k} slots')
        if not str(g).isdigit():
            problems.append(f'gpid {g!r} is not an integer')
    nxt = int(game['nextPieceSlotId'])
    if any(int(g) >= nxt for g in gpids if str(g).isdigit()):
        problems.append(f'a gpid is not below nextPieceSlotId {nxt}')

    # Maps: boards with their origin, zones with their grids.
    maps = {}
    for mname, m in game.getMaps(asdict=True).items():
        boards = {}
        for picker in m.getBoardPicker(single=False) or []:
            setup = kids(picker._node, 'setup')
            text = setup[0].firstChild.nodeValue if setup else ''
            parts = text.split('\t')[1:]
            slots_of = {parts[i]: (int(parts[i + 1]), int(parts[i + 2]))
                        for i in range(0, len(parts) - 2, 3)}
            for bname, b in picker.getBoards(asdict=True).items():
                img = b['image']
                if img and 'images/' + img not in files:
                    problems.append(f'board {bname!r}: image {img!r} is not in the archive')
                boards[bname] = dict(el=b, slot=slots_of.get(bname, (0, 0)),
                                     w=int(b['width']), h=int(b['height']))
        for bname, b in boards.items():
            c, r = b['slot']
            b['x'] = sum(o['w'] for o in boards.values() if o['slot'][1] == r and o['slot'][0] < c)
            b['y'] = sum(o['h'] for o in boards.values() if o['slot'][0] == c and o['slot'][1] < r)
        maps[mname] = boards

    def hex_centre(mname, location):
        for b in maps.get(mname, {}).values():
            for zg in b['el'].getZonedGrids(single=False) or []:
                for zname, z in (zg.getZones(asdict=True) or {}).items():
                    for g in z.getHexGrids(single=False) or []:
                        for n in g.getNumbering() or []:
                            fmt = n['locationFormat'] or '$gridLocation$'
                            prefix = fmt.split('$gridLocation$')[0]
                            if not location.startswith(prefix):
                                continue
                            p = quiet(g.getLocation, location[len(prefix):])
                            if p is not None:
                                return p[0] + b['x'], p[1] + b['y']
        return None

    def in_zone(mname, location, x, y):
        for b in maps.get(mname, {}).values():
            for zg in b['el'].getZonedGrids(single=False) or []:
                z = (zg.getZones(asdict=True) or {}).get(location)
                if z is not None:
                    pts = [tuple(map(int, p.split(','))) for p in z['path'].split(';')]
                    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
                    return min(xs) <= x - b['x'] <= max(xs) and min(ys) <= y - b['y'] <= max(ys)
        return False

    expected = json.load(open(expect_path))
    palette = set(map(str, gpids))
    checked = 0
    for setup in expected:
        f = setup['file']
        if f not in blobs:
            problems.append(f'setup {f}: not in the archive')
            continue
        raw = io.BytesIO(blobs[f])
        raw.name = f
        lines = quiet(SaveIO.readSave, raw)[1]
        saved = defaultdict(list)
        stacked = set()
        for line in lines:
            if not line.startswith('+/'):
                continue
            try:
                iden, traits = quiet(WithTraits.decodeAdd2, line)
            except Exception as e:  # noqa: BLE001 - any failure is a finding
                problems.append(f'setup {f}: a piece does not decode ({e})')
                continue
            last = traits[-1]
            if last.ID == 'stack':
                stacked.update(s for s in last._state[3:] if s and not s.startswith('@@'))
                continue
            if last.ID != 'piece':
                problems.append(f'setup {f}: piece {iden} does not end in a BasicPiece')
                continue
            st = last._state
            if st[3] not in palette:
                problems.append(f'setup {f}: piece {iden} has gpid {st[3]} of no palette slot')
            name = last['name'].replace('\\/', '/')
            saved[(name, st[0])].append(dict(id=iden, x=int(st[1]), y=int(st[2]), used=False))
        for p in setup['pieces']:
            candidates = saved.get((p['name'], p['map']), [])
            want = hex_centre(p['map'], p['location']) if p['map'] == 'Main Map' else None
            hit = None
            for c in candidates:
                if c['used']:
                    continue
                if want is not None:
                    ok = abs(c['x'] - want[0]) <= TOLERANCE and abs(c['y'] - want[1]) <= TOLERANCE
                else:
                    ok = in_zone(p['map'], p['location'], c['x'], c['y'])
                if ok:
                    hit = c
                    break
            if hit is None:
                got = [(c['x'], c['y']) for c in candidates]
                problems.append(f'setup {f}: {p["name"]!r} is not at {p["location"]} '
                                f'(pywargame puts it at {want}; the save has {got})')
            else:
                hit['used'] = True
                checked += 1
                if hit['id'] not in stacked:
                    problems.append(f'setup {f}: {p["name"]!r} is in no stack')
        extra = sum(1 for v in saved.values() for c in v if not c['used'])
        if extra:
            problems.append(f'setup {f}: {extra} saved piece(s) muster did not list')

    for pr in problems:
        print('PROBLEM:', pr)
    print(f'{len(slots)} slots, {len(protos)} prototypes, {len(expected)} setups, '
          f'{checked} pieces placed as expected, {len(problems)} problem(s)')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1], sys.argv[2]))
