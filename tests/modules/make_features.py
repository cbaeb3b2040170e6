#!/usr/bin/env python3
"""Write the `muster-features` fixture: a small VASSAL 3.7 module made for this corpus.

    make_features.py [DEST_DIR]      (default: the muster-features folder beside this file)

It has one of each thing that VASSAL's location and name model distinguishes and
that the public modules of the corpus lack: several boards in one map (JPEG, GIF,
SVG, PNG and image-less boards), hex and square grids with their numbering, a
zoned grid whose zones hold a region grid (zone named `$gridLocation$`), a hex
grid and no grid, over a square background grid; a region grid straight on a
board; a board with no grid; a PlayerHand and a PrivateMap; decks and at-start
stacks inside map folders two deep; pieces named by BasicName, Layer and Text
Label traits. Every piece has a `UnitId` marker so that the oracle can move it.

Writes buildFile.xml, moduledata and images/ (solid-colour images written by
standin.py). The saves are made by VASSAL itself from this module (README.md).
Deterministic. Python 3 standard library only.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import standin  # noqa: E402

VASSAL_VERSION = "3.7.26"


def enc(tokens, delim):
    """VASSAL's SequenceEncoder: escape the delimiter with a backslash, quote a leading one."""
    out = []
    for s in tokens:
        if not s:
            out.append("")
            continue
        e = s.replace(delim, "\\" + delim)
        if s.startswith("\\") or (s.startswith("'") and s.endswith("'") and len(s) > 1):
            e = "'" + e + "'"
        out.append(e)
    return delim.join(out)


def xml_escape(s):
    """Escape text for an XML attribute or element."""
    return (s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


# ---- traits: (type, state), outermost first -------------------------------

def marker(key, value):
    """A Marker trait (`mark;`)."""
    return ("mark;" + key, value)


def basic_name(name):
    """A BasicName trait (VASSAL 3.6+), the name the piece shows."""
    return ("basicName;" + enc([name], ";"), "")


def layer(name, images, names, level):
    """A Layer (Embellishment) with one image and one name change per level."""
    fields = ["", "128", "A", "Next " + name, "128", "", "", "128", "", "", "", "1",
              "false", "0", "0", enc(images, ","), enc(names, ","), "true", name, "", "",
              "false", "", "1", "1", "true", "", "78,130", "", "", "1.0", "", "true"]
    return ("emb2;" + enc(fields, ";"), str(level))


def text_label(text, name_format="$pieceName$ ($label$)"):
    """A Text Label trait whose name format puts the label into the piece's name."""
    fields = ["", "Change Label", "10", "", "0,0,0", "t", "0", "c", "0", "b", "c",
              name_format, "Dialog", "0", "0", "TextLabel", "", "false"]
    return ("label;" + enc(fields, ";"), text)


def piece_slot(name, image, gpid, traits, width=64, height=64):
    """A PieceSlot element holding the AddPiece text of a piece."""
    ptype = "piece;" + enc(["", "", image, name], ";")
    pstate = "null;0;0;%d;0" % gpid
    for ttype, tstate in reversed(traits):
        ptype = enc([ttype, ptype], "\t")
        pstate = enc([tstate, pstate], "\t")
    text = enc(["+", "null", ptype, pstate], "/")
    return ('<VASSAL.build.widget.PieceSlot entryName="%s" gpid="%d" height="%d" width="%d">%s'
            "</VASSAL.build.widget.PieceSlot>" % (xml_escape(name), gpid, height, width,
                                                 xml_escape(text)))


class Pieces:
    """Hands out gpids and writes piece slots with a UnitId marker."""

    def __init__(self):
        self.gpid = 0

    def slot(self, unit, name, image, traits=()):
        """A piece slot for unit `unit` with the given extra traits (outermost first)."""
        self.gpid += 1
        return piece_slot(name, image, self.gpid, list(traits) + [marker("UnitId", unit)])


# ---- components ------------------------------------------------------------

MAP_CHILDREN = """
  <VASSAL.build.module.map.StackMetrics bottom="40,0" disabled="false" down="37,0" exSepX="6" exSepY="18" top="38,0" unexSepX="8" unexSepY="16" up="39,0"/>
  <VASSAL.build.module.map.ForwardToKeyBuffer/>
  <VASSAL.build.module.map.Scroller/>
  <VASSAL.build.module.map.ForwardToChatter/>
  <VASSAL.build.module.map.MenuDisplayer/>
  <VASSAL.build.module.map.MapCenterer/>
  <VASSAL.build.module.map.StackExpander/>
  <VASSAL.build.module.map.PieceMover/>
  <VASSAL.build.module.map.KeyBufferer/>
  <VASSAL.build.module.properties.GlobalProperties/>
  <VASSAL.build.module.map.SelectionHighlighters/>
  <VASSAL.build.module.map.HighlightLastMoved color="255,0,0" enabled="true" thickness="2"/>"""


def map_open(cls, name, extra=""):
    """The opening tag of a map element (Map, PlayerHand, PrivateMap)."""
    return ('<VASSAL.build.module.%s allowMultiple="false" backgroundcolor="255,255,255" '
            'buttonName="%s" changeFormat="$message$" color="0,0,0" '
            'createFormat="$pieceName$ created in $location$" edgeHeight="0" edgeWidth="0" '
            'hotkey="" icon="" launch="false" mapName="%s" markMoved="Never" '
            'moveKey="" moveToFormat="$pieceName$ moves $previousLocation$ -&gt; $location$" '
            'moveWithinFormat="$pieceName$ moves $previousLocation$ -&gt; $location$" '
            'showKey="" thickness="3"%s>' % (cls, xml_escape(name), xml_escape(name), extra))


def board_picker(map_name, boards, setup):
    """A BoardPicker with the given Board elements and a fixed arrangement."""
    cells = "\t".join("%s\t%d\t%d" % s for s in setup)
    return ('<VASSAL.build.module.map.BoardPicker addColumnText="Add column" addRowText="Add row" '
            'boardPrompt="Select board" slotHeight="125" slotScale="0.2" slotWidth="350" '
            'title="Choose Boards">\n%s\n<setup>%s</setup>\n</VASSAL.build.module.map.BoardPicker>'
            % ("\n".join(boards), xml_escape("%sBoardPicker\t%s" % (map_name, cells))))


def board(name, image=None, grid="", width=None, height=None):
    """A Board with an image (or a size and colour) and an optional grid."""
    attrs = 'name="%s" reversible="false"' % xml_escape(name)
    if image:
        attrs = 'image="%s" ' % image + attrs
    else:
        attrs += ' color="200,200,200" width="%d" height="%d"' % (width, height)
    if not grid:
        return "<VASSAL.build.module.map.boardPicker.Board %s/>" % attrs
    return ("<VASSAL.build.module.map.boardPicker.Board %s>\n%s\n"
            "</VASSAL.build.module.map.boardPicker.Board>" % (attrs, grid))


B = "VASSAL.build.module.map.boardPicker.board."


def numbering(cls, location_format, h_type="N", v_type="N", sep="", stagger=None):
    """A HexGridNumbering or SquareGridNumbering element."""
    extra = ' stagger="%s"' % stagger if stagger is not None else ""
    return ('<%smapgrid.%s color="0,0,0" first="H" fontSize="9" hDescend="false" hDrawOff="0" '
            'hLeading="1" hOff="0" hType="%s" locationFormat="%s" rotateText="0" sep="%s"%s '
            'vDescend="false" vDrawOff="0" vLeading="1" vOff="0" vType="%s" visible="false"/>'
            % (B, cls, h_type, xml_escape(location_format), sep, extra, v_type))


def hex_grid(location_format, x0=0, y0=30, dx=52, dy=60):
    """A flat-topped hex grid with 2-digit column-row numbering."""
    return ('<%sHexGrid color="0,0,0" cornersLegal="false" dotsVisible="false" dx="%s" dy="%s" '
            'edgesLegal="false" sideways="false" snapTo="true" visible="false" x0="%d" y0="%d">\n'
            '%s\n</%sHexGrid>' % (B, dx, dy, x0, y0,
                                  numbering("HexGridNumbering", location_format, stagger="true"),
                                  B))


def square_grid(location_format, dx=50, dy=50, x0=0, y0=0):
    """A square grid numbered letter-column, number-row (A1, B3, ...)."""
    return ('<%sSquareGrid color="0,0,0" cornersLegal="false" dotsVisible="false" dx="%s" dy="%s" '
            'edgesLegal="false" range="Metric" snapTo="true" visible="false" x0="%d" y0="%d">\n'
            '%s\n</%sSquareGrid>' % (B, dx, dy, x0, y0,
                                     numbering("SquareGridNumbering", location_format,
                                               h_type="A"), B))


def region_grid(regions):
    """A RegionGrid of named points."""
    inner = "\n".join('<%sRegion name="%s" originx="%d" originy="%d"/>' % (B, xml_escape(n), x, y)
                      for n, x, y in regions)
    return ('<%sRegionGrid fontsize="9" snapto="true" visible="false">\n%s\n</%sRegionGrid>'
            % (B, inner, B))


def zone(name, location_format, path, grid=""):
    """A Zone of a ZonedGrid, with its own grid or none."""
    head = ('<%smapgrid.Zone highlightProperty="" locationFormat="%s" name="%s" path="%s" '
            'useHighlight="false" useParentGrid="false"' % (B, xml_escape(location_format),
                                                            xml_escape(name), path))
    if not grid:
        return head + "/>"
    return head + ">\n%s\n</%smapgrid.Zone>" % (grid, B)


def rect(x0, y0, x1, y1):
    """A rectangle as a Zone path."""
    return "%d,%d;%d,%d;%d,%d;%d,%d" % (x0, y0, x1, y0, x1, y1, x0, y1)


def setup_stack(name, owning_board, x, y, slots):
    """An At-Start Stack at board pixel x,y."""
    return ('<VASSAL.build.module.map.SetupStack location="" name="%s" owningBoard="%s" '
            'useGridLocation="false" x="%d" y="%d">\n%s\n</VASSAL.build.module.map.SetupStack>'
            % (xml_escape(name), xml_escape(owning_board), x, y, "\n".join(slots)))


def deck(name, owning_board, x, y, slots):
    """A Deck (DrawPile) at board pixel x,y, face up, not shuffled."""
    return ('<VASSAL.build.module.map.DrawPile allowMultiple="false" allowSelect="false" '
            'draw="true" faceDown="Never" name="%s" owningBoard="%s" reshufflable="false" '
            'reversible="false" shuffle="Never" width="100" height="140" x="%d" y="%d">\n%s\n'
            '</VASSAL.build.module.map.DrawPile>'
            % (xml_escape(name), xml_escape(owning_board), x, y, "\n".join(slots)))


def folder(name, children):
    """A map sub-folder (VASSAL 3.6+)."""
    return ('<VASSAL.build.module.folder.MapSubFolder description="" name="%s">\n%s\n'
            '</VASSAL.build.module.folder.MapSubFolder>' % (xml_escape(name), "\n".join(children)))


# ---- the module --------------------------------------------------------------

IMAGES = {
    # boards
    "west.jpg": (600, 400), "east.gif": (400, 400), "kingdom.svg": (800, 600),
    "track.png": (500, 100), "hand.png": (300, 200), "box.gif": (300, 150),
    # pieces
    "knight.png": (50, 50), "archer.png": (50, 50), "archer_spent.png": (50, 50),
    "veteran.svg": (50, 50), "card.jpg": (100, 140), "token.gif": (40, 40),
    "ship.svg": (48, 32),
}


def main_map(p):
    """Two boards side by side: JPEG hex board West, GIF square board East."""
    boards = [board("West", "west.jpg", hex_grid("W$gridLocation$")),
              board("East", "east.gif", square_grid("$gridLocation$"))]
    stacks = folder("Setup", [
        setup_stack("Knights", "West", 160, 150, [
            p.slot("knight-1", "Knight", "knight.png", [basic_name("Sir Kay")]),
            p.slot("knight-2", "Knight", "knight.png", [text_label("Red")]),
        ]),
        setup_stack("Archers", "East", 125, 75, [
            p.slot("archer-1", "Archer", "archer.png",
                   [layer("Spent", ["archer.png", "archer_spent.png"], ["", "+ (spent)"], 2)]),
            p.slot("archer-2", "Archer", "archer.png",
                   [layer("Spent", ["archer.png", "archer_spent.png"], ["", "+ (spent)"], 1)]),
        ]),
        setup_stack("Captain", "West", 420, 260, [
            p.slot("captain", "Captain", "knight.png",
                   [text_label("Blue"),
                    layer("Rank", ["veteran.svg"], ["Veteran +"], 1),
                    basic_name("Gawain")]),
        ]),
    ])
    decks = folder("Decks", [
        deck("Event Deck", "East", 300, 300, [
            p.slot("event-a", "Event A", "card.jpg"),
            p.slot("event-b", "Event B", "card.jpg"),
            p.slot("event-c", "Event C", "card.jpg"),
        ]),
        folder("Reserve", [
            deck("Reserve Deck", "West", 80, 320, [
                p.slot("reserve-1", "Reserve 1", "card.jpg"),
                p.slot("reserve-2", "Reserve 2", "card.jpg"),
            ]),
        ]),
    ])
    return "\n".join([
        map_open("Map", "Main Map"),
        board_picker("Main Map", boards, [("West", 0, 0), ("East", 1, 0)]),
        MAP_CHILDREN, stacks, decks, "</VASSAL.build.module.Map>"])


def kingdom_map(p):
    """An SVG board with a zoned grid: region zone, hex zone, plain zone, square background."""
    grid = "\n".join([
        "<%sZonedGrid>" % B,
        zone("Provinces", "$gridLocation$", rect(0, 0, 400, 600),
             region_grid([("Avalon", 100, 100), ("Camelot", 300, 150),
                          ("Lyonesse", 150, 450)])),
        zone("Sea", "$name$ $gridLocation$", rect(400, 0, 800, 300), hex_grid("$gridLocation$",
                                                                             x0=400, y0=30)),
        zone("Harbour", "$name$", rect(400, 300, 600, 600)),
        square_grid("Field $gridLocation$", dx=100, dy=100),
        "</%sZonedGrid>" % B])
    stacks = [
        setup_stack("Settler", "Kingdom", 110, 105, [p.slot("settler", "Settler", "token.gif")]),
        setup_stack("Monk", "Kingdom", 290, 160, [p.slot("monk", "Monk", "token.gif",
                                                          [text_label("Brother Cadfael")])]),
        setup_stack("Ship", "Kingdom", 560, 120, [p.slot("ship", "Ship", "ship.svg")]),
        setup_stack("Merchant", "Kingdom", 500, 450, [p.slot("merchant", "Merchant",
                                                              "token.gif")]),
        setup_stack("Scout", "Kingdom", 700, 500, [p.slot("scout", "Scout", "token.gif")]),
    ]
    return "\n".join([
        map_open("Map", "Kingdom"),
        board_picker("Kingdom", [board("Kingdom", "kingdom.svg", grid)], [("Kingdom", 0, 0)]),
        MAP_CHILDREN, "\n".join(stacks), "</VASSAL.build.module.Map>"])


def display_map(p):
    """Two boards in a column: a PNG board with no grid, an image-less board with no grid."""
    stacks = [
        setup_stack("Turn", "Track", 50, 50, [p.slot("turn-marker", "Turn", "token.gif")]),
        setup_stack("Blank", "Blank", 150, 50, [p.slot("blank-marker", "Blank marker",
                                                        "token.gif")]),
    ]
    return "\n".join([
        map_open("Map", "Display"),
        board_picker("Display", [board("Track", "track.png"),
                                 board("Blank", None, "", 300, 100)],
                     [("Track", 0, 0), ("Blank", 0, 1)]),
        MAP_CHILDREN, "\n".join(stacks), "</VASSAL.build.module.Map>"])


def hand_map(p):
    """A PlayerHand of side North, board without grid, a deck in a folder."""
    extra = ' side="North" useBoards="" visible="false"'
    return "\n".join([
        map_open("PlayerHand", "North Hand", extra),
        board_picker("North Hand", [board("North Cards", "hand.png")], [("North Cards", 0, 0)]),
        MAP_CHILDREN,
        folder("Hand", [deck("North Draw", "North Cards", 100, 100, [
            p.slot("north-1", "North 1", "card.jpg"), p.slot("north-2", "North 2", "card.jpg")])]),
        setup_stack("Kept card", "North Cards", 230, 100, [p.slot("north-kept", "North kept",
                                                                  "card.jpg")]),
        "</VASSAL.build.module.PlayerHand>"])


def private_map(p):
    """A PrivateMap of side South, with a region grid straight on its board."""
    extra = ' side="South" useBoards="" visible="false"'
    return "\n".join([
        map_open("PrivateMap", "South Reserve", extra),
        board_picker("South Reserve", [board("South Box", "box.gif",
                                             region_grid([("Reserve", 60, 70),
                                                          ("Casualties", 230, 70)]))],
                     [("South Box", 0, 0)]),
        MAP_CHILDREN,
        setup_stack("Reserve", "South Box", 70, 75, [p.slot("south-1", "Footman", "token.gif"),
                                                     p.slot("south-2", "Footman", "token.gif")]),
        setup_stack("Casualties", "South Box", 225, 60, [p.slot("south-3", "Footman",
                                                                "token.gif",
                                                                [text_label("lost")])]),
        "</VASSAL.build.module.PrivateMap>"])


def build_file():
    """The whole buildFile.xml text."""
    p = Pieces()
    maps = [main_map(p), kingdom_map(p), display_map(p), hand_map(p), private_map(p)]
    head = ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
            '<VASSAL.build.GameModule ModuleOther1="" ModuleOther2="" VassalVersion="%s" '
            'description="Location and name cases for muster" name="Muster Features" '
            'nextPieceSlotId="%d" version="1.0">' % (VASSAL_VERSION, p.gpid + 1000))
    body = """
<VASSAL.build.module.BasicCommandEncoder/>
<VASSAL.build.module.PlayerRoster buttonKeyStroke="" buttonText="Retire" buttonToolTip="Switch sides">
<entry>North</entry>
<entry>South</entry>
</VASSAL.build.module.PlayerRoster>
<VASSAL.build.module.GlobalOptions autoReport="Always" centerOnMove="Never" chatterHTMLSupport="Never" hotKeysOnClosedWindows="Never" inventoryForAll="Always" nonOwnerUnmaskable="Never" playerIdFormat="$PlayerName$" promptString="Opponents can unmask pieces"/>
<VASSAL.build.module.Chatter/>
<VASSAL.build.module.PredefinedSetup isMenu="false" name="Opening" useFile="true" file="opening.vsav"/>
"""
    return head + body + "\n".join(maps) + "\n</VASSAL.build.GameModule>\n"


def module_data():
    """The moduledata entry."""
    return ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<data version="1">\n'
            "  <version>1.0</version>\n  <extra1/>\n  <extra2/>\n"
            "  <VassalVersion>%s</VassalVersion>\n  <dateSaved>0</dateSaved>\n"
            "  <description>Location and name cases for muster</description>\n"
            "  <name>Muster Features</name>\n</data>\n" % VASSAL_VERSION)


def image_bytes(name, size):
    """A solid-colour image of the given name's type and size."""
    w, h = size
    ext = name.rsplit(".", 1)[1]
    if ext == "png":
        return standin.png_standin(w, h)
    if ext == "jpg":
        return standin.jpeg_standin(w, h)
    if ext == "gif":
        return standin.gif_standin(w, h)
    return standin.svg_standin({"width": str(w), "height": str(h),
                                "viewBox": "0 0 %d %d" % (w, h)})


def main(argv):
    """Write the fixture files."""
    dest = argv[1] if len(argv) > 1 else os.path.join(HERE, "muster-features")
    os.makedirs(os.path.join(dest, "images"), exist_ok=True)
    with open(os.path.join(dest, "buildFile.xml"), "w", encoding="utf-8") as f:
        f.write(build_file())
    with open(os.path.join(dest, "moduledata"), "w", encoding="utf-8") as f:
        f.write(module_data())
    for name in sorted(IMAGES):
        with open(os.path.join(dest, "images", name), "wb") as f:
            f.write(image_bytes(name, IMAGES[name]))
    print(dest)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
