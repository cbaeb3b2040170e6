// Runs VASSAL 3.7.26's own tiler on a module, as a player's launch does
// (launch/AbstractLaunchAction.java): a TilingHandler with 256x256 tiles over the module's
// tile cache, which finds the images whose tiles are missing or older than the image's zip
// entry (TilingHandler.isFresh) and has ZipFileImageTiler slice them in a child JVM.
// Prints, as JSON, the images it found stale and sliced: {"sliced": ["images/a.png", ...]}.
// usage: java -cp VASSAL:this MusterTiles MODULE.vmod TILE_CACHE_DIR
import VASSAL.launch.TilingHandler;
import VASSAL.tools.DataArchive;
import VASSAL.tools.io.FileStore;
import VASSAL.tools.lang.Pair;

import java.awt.Dimension;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;

public class MusterTiles {
  public static void main(String[] args) throws Exception {
    final List<String> sliced = new ArrayList<>();
    final TilingHandler handler = new TilingHandler(
      args[0], new File(args[1]), new Dimension(256, 256), 1024
    ) {
      @Override
      protected Pair<Integer, Integer> findImages(
        DataArchive archive,
        FileStore tcache,
        List<String> multi,
        List<Pair<String, IOException>> failed
      ) throws IOException {
        final Pair<Integer, Integer> found = super.findImages(archive, tcache, multi, failed);
        sliced.addAll(multi);
        for (final Pair<String, IOException> f : failed) {
          System.err.println("unreadable image " + f.first + ": " + f.second);
        }
        return found;
      }

      // VASSAL's own handler shows a progress dialog; this one shows nothing.
      @Override
      protected StateMachineHandler createStateMachineHandler(int tcount, Future<Integer> fut) {
        return new StateMachineHandler() {
          @Override public void handleStart() {}
          @Override public void handleStartingImageState(String in) {}
          @Override public void handleTileWrittenState() {}
          @Override public void handleTilingFinishedState() {}
          @Override public void handleSuccess() {}
          @Override public void handleFailure() {}
        };
      }
    };
    handler.sliceTiles();
    final StringBuilder out = new StringBuilder("{\"sliced\": [");
    for (int i = 0; i < sliced.size(); i++) {
      if (i > 0) out.append(", ");
      out.append('"').append(sliced.get(i).replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
    }
    System.out.println(out.append("]}"));
  }
}
