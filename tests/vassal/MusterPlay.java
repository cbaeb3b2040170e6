import java.awt.Component;
import java.awt.Container;
import java.awt.Image;
import java.awt.Rectangle;
import java.awt.Robot;
import java.awt.Window;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;

import javax.imageio.ImageIO;
import javax.swing.JMenuItem;
import javax.swing.JPopupMenu;
import javax.swing.MenuElement;
import javax.swing.SwingUtilities;

import VASSAL.Info;
import VASSAL.build.AbstractBuildable;
import VASSAL.build.Buildable;
import VASSAL.build.GameModule;
import VASSAL.build.module.ChartWindow;
import VASSAL.build.module.Documentation;
import VASSAL.build.module.GameRefresher;
import VASSAL.build.module.Map;
import VASSAL.build.module.documentation.AboutScreen;
import VASSAL.build.module.documentation.BrowserPDFFile;
import VASSAL.build.module.documentation.HelpFile;
import VASSAL.build.module.map.CounterDetailViewer;
import VASSAL.build.module.map.MenuDisplayer;
import VASSAL.build.module.turn.TurnTracker;
import VASSAL.build.widget.Chart;
import VASSAL.build.widget.HtmlChart;
import VASSAL.command.Command;
import VASSAL.command.NullCommand;
import VASSAL.counters.BasicPiece;
import VASSAL.counters.Decorator;
import VASSAL.counters.GamePiece;
import VASSAL.counters.KeyBuffer;
import VASSAL.i18n.Localization;
import VASSAL.launch.ExceptionHandler;
import VASSAL.launch.StandardConfig;
import VASSAL.launch.StartUp;
import VASSAL.tools.DataArchive;
import VASSAL.tools.FormattedString;
import VASSAL.tools.menu.MenuManager;

/**
 * muster's play test of a module in the real VASSAL 3.7.26: what a player does beyond loading
 * and dragging, which the harness's Oracle does not drive. It starts VASSAL as Oracle does
 * (and reuses Oracle's log capture, dialog watcher, piece listing and JSON writer, which are
 * on the harness's classpath), loads a module and a predefined setup or a save, then runs
 * the actions given, in order, each the way VASSAL's own user interface runs it:
 *
 *   --chart              open every Chart Window (its toolbar button) and read each chart in it
 *   --docs               read every entry of the Help menu the module adds (about screen, help
 *                        files, PDF documents)
 *   --viewer UNIT        the mouse-over stack viewer's text over that piece's hex and over an
 *                        empty point of the same map
 *   --key UNIT=COMMAND   right-click the piece whose UnitId is UNIT and choose COMMAND from its
 *                        menu (MenuDisplayer.createPopup, then the menu item's doClick)
 *   --expr UNIT=FORMAT   evaluate a message format ($...$ and {...}) against that piece
 *   --move UNIT=LOCATION drag the piece whose UnitId is UNIT to LOCATION and drop it there, as the
 *                        harness's Oracle --move does (Oracle.doMove: VASSAL's PieceMover drop, with
 *                        the map's move key applied to the piece)
 *   --button TEXT        press the toolbar button showing TEXT (of a map or of the module)
 *   --center UNIT        scroll the piece's map so that the piece is in the middle of the view
 *   --send UNIT=NAME     send the named key command NAME to that piece, as a Trigger Action does
 *   --pref NAME=VALUE    set a boolean module preference, as its checkbox in Preferences does
 *   --save OUT.vsav      save the game as File > Save Game does (the harness's Oracle.saveGame)
 *   --turns N            press the turn tracker's Next button N times
 *   --refresh            File > Refresh Counters with "refresh pieces" on (GameRefresher, as its
 *                        dialog runs it), matching saved pieces to palette slots by gpid only
 *   --refresh-named      the same with "use layer names" and "use label names" on too
 *   --screenshot OUT.png the module's windows as the X server shows them
 *
 * usage: MusterPlay --json OUT.json MODULE.vmod [--setup FILE.vsav | SAVE.vsav] ACTIONS...
 * Exit: 0 no error, 1 errors (any VASSAL WARN/ERROR line, error dialog or failed action), 2 no module.
 */
public class MusterPlay {
  static final List<Object> actions = new ArrayList<>();

  public static void main(String[] args) throws Exception {
    String jsonPath = null;
    String setupFile = null;
    File module = null;
    File save = null;
    final List<String[]> todo = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      final String a = args[i];
      if ("--json".equals(a)) jsonPath = args[++i];
      else if ("--setup".equals(a)) setupFile = args[++i];
      else if ("--chart".equals(a) || "--docs".equals(a) || "--refresh".equals(a) || "--refresh-named".equals(a)) todo.add(new String[]{a, ""});
      else if (a.startsWith("--")) todo.add(new String[]{a, args[++i]});
      else if (module == null) module = new File(a);
      else save = new File(a);
    }
    if (module == null || jsonPath == null) {
      System.err.println("usage: MusterPlay --json OUT.json MODULE.vmod [--setup FILE | SAVE.vsav] ACTIONS...");
      System.exit(2);
    }

    // The start-up of VASSAL.launch.Player, as Oracle does it.
    Info.setConfig(new StandardConfig());
    final StartUp start = new StartUp();
    start.startErrorLog();
    Oracle.installLogCapture();
    Thread.setDefaultUncaughtExceptionHandler(new ExceptionHandler());
    start.initSystemProperties();
    final Constructor<?> mm = Class.forName("VASSAL.launch.Player$PlayerMenuManager").getDeclaredConstructor();
    mm.setAccessible(true);
    final MenuManager menus = (MenuManager) mm.newInstance();
    final Thread watcher = new Thread(Oracle::watchDialogs, "dialog-watcher");
    watcher.setDaemon(true);
    watcher.start();

    final LinkedHashMap<String, Object> report = new LinkedHashMap<>();
    final long t0 = System.currentTimeMillis();
    boolean fatal = false;
    Oracle.phase = "module-load";
    final File vmod = module;
    final Throwable[] err = new Throwable[1];
    SwingUtilities.invokeAndWait(() -> {
      try {
        GameModule.init(new GameModule(new DataArchive(vmod.getPath())));
        Localization.getInstance().translate();
        final VASSAL.preferences.Prefs prefs = GameModule.getGameModule().getPrefs();
        if (prefs.getOption(VASSAL.build.module.BasicLogger.PROMPT_NEW_LOG_START) != null) {
          prefs.setValue(VASSAL.build.module.BasicLogger.PROMPT_NEW_LOG_START, Boolean.FALSE);
        }
        GameModule.getGameModule().getPlayerWindow().setVisible(true);
      }
      catch (Throwable t) {
        err[0] = t;
      }
    });
    final GameModule gm = GameModule.getGameModule();
    if (err[0] != null || gm == null) {
      Oracle.issue("play", "FATAL", "module load failed: " + (err[0] == null ? "no module" : Oracle.stack(err[0])));
      fatal = true;
    }
    if (!fatal && (setupFile != null || save != null)) {
      Oracle.phase = "game-load";
      Command cmd = null;
      try {
        if (setupFile != null) {
          VASSAL.build.module.PredefinedSetup found = null;
          for (final VASSAL.build.module.PredefinedSetup ps : gm.getAllDescendantComponentsOf(VASSAL.build.module.PredefinedSetup.class)) {
            if (!ps.isMenu() && ps.isUseFile() && setupFile.equals(ps.getFileName())) found = ps;
          }
          if (found == null) Oracle.issue("play", "ERROR", "no predefined setup " + setupFile);
          else cmd = gm.getGameState().decodeSavedGame(found.getSavedGameContents());
        }
        else {
          cmd = gm.getGameState().decodeSavedGame(save);
        }
      }
      catch (Throwable t) {
        Oracle.issue("play", "ERROR", "decoding the game failed: " + Oracle.stack(t));
      }
      if (cmd != null) {
        final Command c = cmd;
        final String gameName = setupFile != null ? setupFile : save.getName();
        SwingUtilities.invokeAndWait(() -> {
          try {
            c.execute();
            gm.setGameFile(gameName, GameModule.GameFileMode.LOADED_GAME);
          }
          catch (Throwable t) {
            Oracle.issue("play", "ERROR", "loading the game failed: " + Oracle.stack(t));
          }
        });
      }
      Oracle.settle();
    }
    if (!fatal) {
      for (final String[] a : todo) {
        Oracle.phase = a[0] + " " + a[1];
        final LinkedHashMap<String, Object> r = new LinkedHashMap<>();
        r.put("action", a[0].substring(2));
        r.put("argument", a[1]);
        final int chatStart = Oracle.chatLength(gm);
        SwingUtilities.invokeAndWait(() -> {
          try {
            run(gm, a[0], a[1], r);
          }
          catch (Throwable t) {
            r.put("error", t.toString());
            Oracle.issue("play", "ERROR", a[0] + " " + a[1] + " failed: " + Oracle.stack(t));
          }
        });
        Oracle.settle();
        if ("--screenshot".equals(a[0])) screenshot(gm, new File(a[1]), r);
        r.put("chat", Oracle.chatSince(gm, chatStart));
        actions.add(r);
      }
      Oracle.phase = "game-inspect";
      final LinkedHashMap<String, Object> game = new LinkedHashMap<>();
      SwingUtilities.invokeAndWait(() -> Oracle.gameSummary(gm, game));
      report.put("game", game);
    }
    Oracle.phase = "settle";
    Oracle.settle();
    Oracle.stopWatch = true;
    report.put("actions", actions);
    final List<Object> iss = new ArrayList<>();
    int errors = 0;
    synchronized (Oracle.issues) {
      for (final String[] i : Oracle.issues) {
        final LinkedHashMap<String, Object> m = new LinkedHashMap<>();
        m.put("source", i[0]);
        m.put("level", i[1]);
        m.put("text", i[2]);
        m.put("phase", i[3]);
        iss.add(m);
        if (!"INFO".equals(i[1])) errors++;
      }
    }
    report.put("issues", iss);
    report.put("error_count", errors);
    report.put("verdict", fatal ? "FATAL" : (errors == 0 ? "OK" : "ERRORS"));
    report.put("total_ms", System.currentTimeMillis() - t0);
    try (PrintWriter w = new PrintWriter(new OutputStreamWriter(new FileOutputStream(jsonPath), StandardCharsets.UTF_8))) {
      w.println(Oracle.json(report, ""));
    }
    System.out.println("VERDICT: " + report.get("verdict") + " errors=" + errors);
    Runtime.getRuntime().halt(fatal ? 2 : (errors == 0 ? 0 : 1));
  }

  static void run(GameModule gm, String action, String arg, LinkedHashMap<String, Object> r) throws Exception {
    switch (action) {
    case "--chart": charts(gm, r); break;
    case "--docs": docs(gm, r); break;
    case "--viewer": viewer(gm, arg, r); break;
    case "--key": key(gm, arg, r); break;
    case "--expr": expr(gm, arg, r); break;
    case "--move": move(gm, arg, r); break;
    case "--button": button(gm, arg, r); break;
    case "--send": send(gm, arg, r); break;
    case "--center": { final GamePiece p = piece(gm, arg); p.getMap().centerAt(p.getPosition()); where(p, "", r); break; }
    case "--save": Oracle.saveGame(gm, new File(arg), r); break;
    case "--pref": {
      final int eq = arg.indexOf('=');
      gm.getPrefs().setValue(arg.substring(0, eq), Boolean.valueOf(arg.substring(eq + 1)));
      r.put("property", String.valueOf(gm.getProperty(arg.substring(0, eq))));
      break;
    }
    case "--turns": turns(gm, Integer.parseInt(arg), r); break;
    case "--refresh": refresh(gm, r, Set.of(GameRefresher.REFRESH_PIECES)); break;
    case "--refresh-named": refresh(gm, r, Set.of(GameRefresher.REFRESH_PIECES, GameRefresher.USE_LAYER_NAME, GameRefresher.USE_LABELER_NAME)); break;
    case "--screenshot": break;
    default: throw new IllegalArgumentException("unknown action " + action);
    }
  }

  /** The first piece on a map whose UnitId is unit (else the first at all). */
  static GamePiece piece(GameModule gm, String unit) {
    GamePiece found = null;
    for (final GamePiece p : Oracle.allGamePieces(gm)) {
      final Object u = p.getProperty("UnitId");
      if (u != null && unit.equals(u.toString()) && (found == null || (found.getMap() == null && p.getMap() != null))) found = p;
    }
    if (found == null) throw new IllegalArgumentException("no piece has UnitId " + unit);
    return found;
  }

  static int count(GameModule gm, String unit) {
    int n = 0;
    for (final GamePiece p : Oracle.allGamePieces(gm)) {
      if (unit.equals(String.valueOf(p.getProperty("UnitId")))) n++;
    }
    return n;
  }

  static void where(GamePiece p, String prefix, LinkedHashMap<String, Object> r) {
    final Map m = p.getMap();
    r.put(prefix + "map", m == null ? null : m.getMapName());
    r.put(prefix + "location", m == null ? null : m.locationName(p.getPosition()));
  }

  /** Every Chart Window opened through its toolbar button, and what each chart in it shows. */
  static void charts(GameModule gm, LinkedHashMap<String, Object> r) throws Exception {
    final List<Object> windows = new ArrayList<>();
    for (final ChartWindow cw : gm.getAllDescendantComponentsOf(ChartWindow.class)) {
      final LinkedHashMap<String, Object> w = new LinkedHashMap<>();
      w.put("name", cw.getConfigureName());
      final Field launch = ChartWindow.class.getDeclaredField("launch");
      launch.setAccessible(true);
      ((javax.swing.AbstractButton) launch.get(cw)).doClick();
      final Field frame = ChartWindow.class.getDeclaredField("frame");
      frame.setAccessible(true);
      final Window f = (Window) frame.get(cw);
      w.put("visible", f != null && f.isShowing());
      final List<Object> charts = new ArrayList<>();
      for (final Chart c : cw.getAllDescendantComponentsOf(Chart.class)) {
        final LinkedHashMap<String, Object> cm = new LinkedHashMap<>();
        cm.put("name", c.getConfigureName());
        cm.put("file", c.getAttributeValueString(Chart.FILE));
        final Component comp = c.getComponent();
        final Image img = VASSAL.tools.imageop.Op.load(c.getAttributeValueString(Chart.FILE)).getImage();
        cm.put("width", img == null ? 0 : img.getWidth(null));
        cm.put("height", img == null ? 0 : img.getHeight(null));
        cm.put("shown", comp != null);
        charts.add(cm);
      }
      for (final HtmlChart c : cw.getAllDescendantComponentsOf(HtmlChart.class)) {
        final LinkedHashMap<String, Object> cm = new LinkedHashMap<>();
        cm.put("name", c.getConfigureName());
        cm.put("file", c.getAttributeValueString(HtmlChart.FILE));
        final Component comp = c.getComponent();
        cm.put("text", comp == null ? "" : text(comp));
        charts.add(cm);
      }
      w.put("charts", charts);
      windows.add(w);
    }
    r.put("windows", windows);
  }

  /** The text a component tree shows (editor panes included). */
  static String text(Component c) {
    final StringBuilder sb = new StringBuilder();
    if (c instanceof javax.swing.text.JTextComponent) {
      try {
        final javax.swing.text.Document d = ((javax.swing.text.JTextComponent) c).getDocument();
        sb.append(d.getText(0, d.getLength())).append('\n');
      }
      catch (javax.swing.text.BadLocationException e) {
        sb.append(e);
      }
    }
    if (c instanceof Container) for (final Component k : ((Container) c).getComponents()) sb.append(text(k));
    return sb.toString();
  }

  /** Every Help menu entry the module's Documentation holds, read as VASSAL reads it. */
  static void docs(GameModule gm, LinkedHashMap<String, Object> r) throws Exception {
    final List<Object> entries = new ArrayList<>();
    final DataArchive archive = gm.getDataArchive();
    for (final Documentation d : gm.getComponentsOf(Documentation.class)) {
      for (final Buildable b : d.getBuildables()) {
        final LinkedHashMap<String, Object> e = new LinkedHashMap<>();
        e.put("class", b.getClass().getSimpleName());
        if (b instanceof AboutScreen) {
          final AboutScreen a = (AboutScreen) b;
          e.put("title", a.getAttributeValueString(AboutScreen.TITLE));
          final Image img = VASSAL.tools.imageop.Op.load(a.getAttributeValueString(AboutScreen.FILE)).getImage();
          e.put("width", img == null ? 0 : img.getWidth(null));
          e.put("height", img == null ? 0 : img.getHeight(null));
        }
        else if (b instanceof HelpFile) {
          final HelpFile h = (HelpFile) b;
          e.put("title", h.getAttributeValueString(HelpFile.TITLE));
          try (InputStream in = h.getContents().openStream()) {
            e.put("text", new String(in.readAllBytes(), StandardCharsets.UTF_8));
          }
        }
        else if (b instanceof BrowserPDFFile) {
          final BrowserPDFFile p = (BrowserPDFFile) b;
          e.put("title", p.getAttributeValueString(BrowserPDFFile.TITLE));
          try (InputStream in = archive.getInputStream(p.getAttributeValueString(BrowserPDFFile.PDF_FILE))) {
            final byte[] bytes = in.readAllBytes();
            e.put("bytes", bytes.length);
            e.put("pdf", bytes.length > 4 && new String(bytes, 0, 5, StandardCharsets.ISO_8859_1).equals("%PDF-"));
          }
        }
        else {
          continue;
        }
        entries.add(e);
      }
    }
    r.put("entries", entries);
  }

  /** The mouse-over viewer's text over a piece's hex, and over an empty point of its map. */
  static void viewer(GameModule gm, String unit, LinkedHashMap<String, Object> r) throws Exception {
    final GamePiece p = piece(gm, unit);
    final Map m = p.getMap();
    where(p, "", r);
    final List<CounterDetailViewer> viewers = m.getComponentsOf(CounterDetailViewer.class);
    r.put("viewers", viewers.size());
    if (viewers.isEmpty()) return;
    final CounterDetailViewer v = viewers.get(0);
    r.put("min_pieces", v.getAttributeValueString(CounterDetailViewer.MINIMUM_DISPLAYABLE));
    // The text VASSAL draws under a stack (getSummaryText) and over a hex without pieces
    // (getEmptyText, which reads the mouse position).
    final Field shown = CounterDetailViewer.class.getDeclaredField("displayablePieces");
    shown.setAccessible(true);
    final Field mouse = CounterDetailViewer.class.getDeclaredField("currentMousePosition");
    mouse.setAccessible(true);
    final Method summary = CounterDetailViewer.class.getDeclaredMethod("getSummaryText");
    summary.setAccessible(true);
    final Method empty = CounterDetailViewer.class.getDeclaredMethod("getEmptyText");
    empty.setAccessible(true);
    final List<GamePiece> stack = new ArrayList<>();
    stack.add(p);
    shown.set(v, stack);
    r.put("stack_text", summary.invoke(v));
    // An empty hex: the first point of the board's grid, scanning from a quarter in, that no
    // piece covers.
    java.awt.Point free = null;
    final Rectangle b = m.getBoards().iterator().next().bounds();
    for (int y = b.y + b.height / 4; free == null && y < b.y + b.height; y += 37) {
      for (int x = b.x + b.width / 4; free == null && x < b.x + b.width; x += 41) {
        final java.awt.Point pt = m.snapTo(new java.awt.Point(x, y));
        if (m.findAnyPiece(pt, VASSAL.counters.PieceFinder.PIECE_IN_STACK) == null && !m.locationName(pt).isEmpty()) free = pt;
      }
    }
    if (free != null) {
      final java.awt.Point c = m.mapToComponent(free);
      mouse.set(v, new java.awt.event.MouseEvent(m.getView(), java.awt.event.MouseEvent.MOUSE_MOVED, 0, 0, c.x, c.y, 0, false));
      r.put("empty_location", m.locationName(free));
      r.put("empty_text", empty.invoke(v));
    }
  }

  /** Right-click the piece, choose the command from its menu. */
  static void key(GameModule gm, String arg, LinkedHashMap<String, Object> r) throws Exception {
    final int eq = arg.indexOf('=');
    final String unit = arg.substring(0, eq);
    final String command = arg.substring(eq + 1);
    final GamePiece p = piece(gm, unit);
    r.put("name", p.getName());
    where(p, "before_", r);
    r.put("count_before", count(gm, unit));
    final java.util.Map<String, java.util.Map<String, String>> before = Oracle.snapshot(gm);
    final KeyBuffer kb = KeyBuffer.getBuffer();
    kb.clear();
    kb.add(p);
    final JPopupMenu popup = MenuDisplayer.createPopup(p, true);
    final List<String> items = new ArrayList<>();
    JMenuItem chosen = null;
    if (popup != null) {
      for (final MenuElement e : popup.getSubElements()) {
        if (e instanceof JMenuItem) {
          final JMenuItem item = (JMenuItem) e;
          items.add(item.getText());
          if (command.equals(item.getText())) chosen = item;
        }
      }
    }
    r.put("menu", items);
    if (chosen == null) {
      Oracle.issue("play", "ERROR", unit + " has no menu command '" + command + "' (menu: " + items + ")");
      return;
    }
    chosen.doClick();
    where(p, "after_", r);
    r.put("count_after", count(gm, unit));
    r.put("changes", Oracle.diff(before, Oracle.snapshot(gm)));
  }

  static void expr(GameModule gm, String arg, LinkedHashMap<String, Object> r) {
    final int eq = arg.indexOf('=');
    final GamePiece p = piece(gm, arg.substring(0, eq));
    where(p, "", r);
    r.put("value", new FormattedString(arg.substring(eq + 1)).getText(p, "MusterPlay"));
  }

  /** Drag and drop a piece as the harness's Oracle does, recording where it ends up. */
  static void move(GameModule gm, String arg, LinkedHashMap<String, Object> r) throws Exception {
    final int eq = arg.lastIndexOf('=');
    Oracle.doMove(gm, arg.substring(0, eq), arg.substring(eq + 1), r);
    final GamePiece p = (GamePiece) r.remove("_piece");
    if (p == null) throw new IllegalArgumentException("no move: " + r.get("error"));
    where(p, "after_", r);
  }

  /** Send the named key command NAME to the piece whose UnitId is UNIT (UNIT=NAME), as a Trigger Action does. */
  static void send(GameModule gm, String arg, LinkedHashMap<String, Object> r) {
    final int eq = arg.indexOf('=');
    final GamePiece p = piece(gm, arg.substring(0, eq));
    final Command c = p.keyEvent(VASSAL.tools.NamedKeyStroke.of(arg.substring(eq + 1)).getKeyStroke());
    gm.sendAndLog(c);
    r.put("commands", c == null ? "" : c.toString());
  }

  /** Press the toolbar button (of any map, or of the module) whose text is text. */
  static void button(GameModule gm, String text, LinkedHashMap<String, Object> r) {
    final List<Container> bars = new ArrayList<>();
    bars.add(gm.getToolBar());
    for (final Map m : Map.getMapList()) bars.add(m.getToolBar());
    for (final Container bar : bars) {
      for (final Component c : bar.getComponents()) {
        if (c instanceof javax.swing.AbstractButton && text.equals(((javax.swing.AbstractButton) c).getText())) {
          ((javax.swing.AbstractButton) c).doClick();
          r.put("pressed", true);
          return;
        }
      }
    }
    throw new IllegalArgumentException("no toolbar button " + text);
  }

  /** Press the turn tracker's Next button n times, recording the turn after each press. */
  static void turns(GameModule gm, int n, LinkedHashMap<String, Object> r) throws Exception {
    final TurnTracker t = gm.getAllDescendantComponentsOf(TurnTracker.class).get(0);
    final Field widget = TurnTracker.class.getDeclaredField("turnWidget");
    widget.setAccessible(true);
    final Object w = widget.get(t);
    final Method next = w.getClass().getDeclaredMethod("doNext");
    next.setAccessible(true);
    final Method turn = TurnTracker.class.getDeclaredMethod("getTurnString");
    turn.setAccessible(true);
    final List<String> seen = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      next.invoke(w);
      seen.add((String) turn.invoke(t));
    }
    r.put("turns", seen);
    r.put("property", String.valueOf(gm.getProperty("Turn")));
  }

  /** File > Refresh Counters, as its dialog runs it, with "refresh pieces" on and nothing else. */
  static void refresh(GameModule gm, LinkedHashMap<String, Object> r, Set<String> options) throws Exception {
    final java.util.Map<String, String> before = identities(gm);
    final GameRefresher refresher = new GameRefresher(gm);
    Command command = new NullCommand();
    refresher.execute(options, command);
    gm.sendAndLog(command);
    for (final String f : new String[]{"totalCount", "updatedCount", "notFoundCount"}) {
      final Field field = GameRefresher.class.getDeclaredField(f);
      field.setAccessible(true);
      r.put(f, field.getInt(refresher));
    }
    r.put("warnings", refresher.warnings());
    // Refreshed pieces are new pieces (with new ids): compare what each piece is and where.
    final List<String> after = new ArrayList<>(identities(gm).values());
    final List<String> was = new ArrayList<>(before.values());
    java.util.Collections.sort(after);
    java.util.Collections.sort(was);
    final List<String> gone = new ArrayList<>(was);
    for (final String a : after) gone.remove(a);
    final List<String> added = new ArrayList<>(after);
    for (final String b : was) added.remove(b);
    r.put("pieces", was.size());
    r.put("pieces_after", after.size());
    r.put("changed", gone);
    r.put("new", added);
  }

  /** Piece id -> what the piece is (UnitId, name, BasicPiece type with its image) and where. */
  static java.util.Map<String, String> identities(GameModule gm) {
    final java.util.Map<String, String> out = new LinkedHashMap<>();
    for (final GamePiece p : Oracle.allGamePieces(gm)) {
      final BasicPiece basic = (BasicPiece) Decorator.getInnermost(p);
      final Map m = p.getMap();
      out.put(p.getId(), p.getProperty("UnitId") + " | " + p.getName() + " | " + basic.getType() + " | "
        + (m == null ? null : m.getMapName() + " " + m.locationName(p.getPosition())));
    }
    return out;
  }

  /** The module's windows as the X server shows them. */
  static void screenshot(GameModule gm, File out, LinkedHashMap<String, Object> r) throws Exception {
    final Rectangle all = new Rectangle();
    for (final Window w : Window.getWindows()) if (w.isShowing()) all.add(w.getBounds());
    final BufferedImage img = new Robot().createScreenCapture(all);
    ImageIO.write(img, "png", out);
    r.put("size", img.getWidth() + "x" + img.getHeight());
  }
}
