//! The build cache under `<out>/.muster-cache/`.
//!
//! Two layers, both keyed by BLAKE3 hashes that start with muster's own identity (its
//! version and the bytes of the running executable), so a different muster never reuses
//! what another one made:
//!
//! - **objects**: content-addressed results of expensive steps (a PNG drawn from an SVG at
//!   a size, the PDF of a set of pages, a module's zip). The key hashes every input of the
//!   step; the object holds the result behind a hash of its own bytes, so an object cut
//!   short or damaged is noticed and made again.
//! - **stamps**: per game, the hash of everything under its source folder and of the build
//!   options, with the list of outputs (path, size, modification time) the build left. A
//!   build whose stamp matches and whose outputs are untouched does nothing for that game.
//!
//! A build of every game removes the objects it did not use; a build of some games keeps
//! them all.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use muster_model::input::{InputError, open_regular, resolve_inside};
use muster_package::archive::{Fetched, MAX_PART, content_parts};
use muster_render::Encoding;
use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorKind, IoContext, Result};
use crate::files::{Stated, files_and_links_under, files_under, write_atomic_unsynced};
use crate::last_archive::LastArchive;
use crate::output::{LastObjects, Outputs, stated_files_of};
use crate::prune_mark::Mark;
use crate::report::{CacheReport, GameReport};
use crate::stored::StoredDiagnostic;
use crate::sync::lock;
use crate::trash::Trash;

/// A cache key: the hash of a step's inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key(blake3::Hash);

impl Key {
    /// The key as 64 hex digits.
    pub fn hex(&self) -> String {
        self.0.to_hex().to_string()
    }
}

/// Builds a key from labelled parts; each part is length-prefixed so that no two different
/// sequences of parts hash alike.
pub struct KeyBuilder(blake3::Hasher);

impl KeyBuilder {
    /// Adds a part.
    pub fn part(&mut self, bytes: &[u8]) -> &mut Self {
        self.0.update(&(bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
        self
    }

    /// The key.
    pub fn finish(&self) -> Key {
        Key(self.0.finalize())
    }
}

/// An image drawn in a build: what it was drawn from, for the benchmark's floor.
#[derive(Debug, Clone)]
pub struct DrawJob {
    /// What it is (`counter ...`, `map ...`, `sheet-01-fronts.png`, ...).
    pub label: String,
    /// The SVG.
    pub svg: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Resolution recorded in the PNG.
    pub dpi: u32,
}

/// A game's stamp: what its last complete build was made from and left behind.
#[derive(Debug, Serialize, Deserialize)]
struct Stamp {
    /// Hash of the game's inputs and the build options.
    key: String,
    /// Every file under the game's outputs as the build left them: path relative to the
    /// output folder, size in bytes, modification time in nanoseconds. Those not listed
    /// in `foreign` are the record of what the build wrote, which `clean` and the next
    /// build may remove while they are unchanged.
    outputs: Vec<(String, u64, u128)>,
    /// The files among `outputs` that the build left in place without having written
    /// them (a stamp of an older muster has none: its builds swept every other file).
    #[serde(default)]
    foreign: Vec<String>,
    /// The cache objects the build used, kept while the stamp stands.
    objects: Vec<String>,
    /// The outputs written from a cache object: path relative to the output folder, and
    /// the object's key.
    #[serde(default)]
    from_objects: BTreeMap<String, String>,
    /// The archives written, each with its entries written from a cache object: path
    /// relative to the output folder, then entry name → the object's key.
    #[serde(default)]
    archives: BTreeMap<String, BTreeMap<String, String>>,
    /// The game's build report.
    summary: GameReport,
    /// The game's diagnostics: from loading it and from fitting its counters' text.
    #[serde(default)]
    diagnostics: Vec<StoredDiagnostic>,
}

impl Stamp {
    /// The stamp as compact JSON, byte for byte what `serde_json::to_vec` prints for it:
    /// its large fields are printed side by side, then joined in order.
    fn to_json(&self) -> serde_json::Result<Vec<u8>> {
        use serde_json::to_vec;
        let ((key, outputs, objects), (from_objects, archives, summary, diagnostics)) =
            rayon::join(
                || (to_vec(&self.key), to_vec(&self.outputs), to_vec(&self.objects)),
                || {
                    (
                        to_vec(&self.from_objects),
                        to_vec(&self.archives),
                        to_vec(&self.summary),
                        to_vec(&self.diagnostics),
                    )
                },
            );
        let fields = [
            ("key", key?),
            ("outputs", outputs?),
            ("foreign", to_vec(&self.foreign)?),
            ("objects", objects?),
            ("from_objects", from_objects?),
            ("archives", archives?),
            ("summary", summary?),
            ("diagnostics", diagnostics?),
        ];
        let mut json = Vec::with_capacity(fields.iter().map(|(_, v)| v.len() + 20).sum());
        for (i, (name, value)) in fields.iter().enumerate() {
            json.push(if i == 0 { b'{' } else { b',' });
            json.push(b'"');
            json.extend_from_slice(name.as_bytes());
            json.extend_from_slice(b"\":");
            json.extend_from_slice(value);
        }
        json.push(b'}');
        Ok(json)
    }
}

/// What a game's stamp says of its last build, when that build still stands.
#[derive(Debug)]
pub struct Standing {
    /// The build report.
    pub report: GameReport,
    /// The game's diagnostics.
    pub diagnostics: Vec<StoredDiagnostic>,
}

/// An image to draw: an SVG at `width` × `height` pixels, recording `dpi`.
#[derive(Debug, Clone, Copy)]
pub struct Picture<'a> {
    /// The SVG.
    pub svg: &'a str,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The resolution the PNG records.
    pub dpi: u32,
}

/// The build cache, shared by the stages of a build.
pub struct Cache {
    root: PathBuf,
    identity: blake3::Hash,
    kept: Mutex<BTreeSet<String>>,
    drawn: Option<Mutex<Recorded>>,
    /// Whether this build has removed the mark of the last prune (see [`Cache::prune`]).
    unmarked: std::sync::Once,
    /// The mark of the last prune, as it stood when this build removed it.
    last_mark: Mutex<Option<Mark>>,
    /// The names of the objects this build wrote.
    written: Mutex<Vec<String>>,
    /// The outputs the build's commits replaced, still to be removed.
    trash: Trash,
}

/// The cache as one game's build sees it: it counts what the build reuses and makes, and
/// which objects it uses, so that games can build side by side.
pub struct GameCache<'a> {
    cache: &'a Cache,
    used: Mutex<HashSet<Key>>,
    reused: AtomicUsize,
    made: Mutex<Vec<String>>,
}

/// The inputs of every image drawn and archive zipped, kept for the benchmark's floor.
#[derive(Debug, Default)]
pub struct Recorded {
    /// Images.
    pub draws: Vec<DrawJob>,
    /// Archives: path → bytes.
    pub zips: Vec<std::collections::BTreeMap<String, Vec<u8>>>,
}

impl Cache {
    /// Opens (without creating) the cache in `root`. `record` keeps every drawn image's
    /// inputs for the benchmark.
    pub fn open(root: PathBuf, record: bool) -> Result<Self> {
        let identity = crate::identity::identity(&root)?;
        Ok(Cache::with_identity(root, identity, record))
    }

    /// Opens the cache in `root` for a muster whose identity is known
    /// ([`crate::identity::identity`]).
    pub fn with_identity(root: PathBuf, identity: blake3::Hash, record: bool) -> Self {
        Cache {
            identity,
            kept: Mutex::default(),
            drawn: record.then(Mutex::default),
            unmarked: std::sync::Once::new(),
            last_mark: Mutex::default(),
            written: Mutex::default(),
            trash: Trash::new(&root),
            root,
        }
    }

    /// Where the outputs the build's commits replace wait to be removed
    /// ([`crate::trash`]).
    pub fn trash(&self) -> &Trash {
        &self.trash
    }

    /// Starts a key for a kind of step.
    pub fn key(&self, kind: &str) -> KeyBuilder {
        let mut h = blake3::Hasher::new();
        h.update(self.identity.as_bytes());
        let mut k = KeyBuilder(h);
        k.part(kind.as_bytes());
        k
    }

    fn object_path(&self, key: &Key) -> PathBuf {
        self.named_object_path(&key.hex())
    }

    /// Where the object named `name` (its key in hex) lies.
    fn named_object_path(&self, name: &str) -> PathBuf {
        self.root.join("objects").join(&name[..2]).join(&name[2..])
    }

    /// Every image drawn and archive zipped (or taken from the cache) so far, when
    /// recording.
    pub fn take_recorded(&self) -> Recorded {
        self.drawn.as_ref().map(|d| std::mem::take(&mut *lock(d))).unwrap_or_default()
    }

    /// The key of a game's build: everything under its source folder, its id and the
    /// build options. A symbolic link counts as where it leads and what the loader reads
    /// through it (`source_digest`), so editing the file it leads to changes the key.
    pub fn game_key(&self, source_dir: &Path, game: &str, options: &str) -> Result<Key> {
        let mut k = self.key("game");
        k.part(game.as_bytes()).part(options.as_bytes());
        for (path, link) in files_and_links_under(source_dir) {
            let rel = path.strip_prefix(source_dir).unwrap_or(&path);
            k.part(rel.to_string_lossy().as_bytes());
            if link {
                let to = fs::read_link(&path)
                    .io(|| format!("failed to read {}", path.display()))?;
                k.part(b"->").part(to.as_os_str().as_encoded_bytes());
            }
            match source_digest(source_dir, &path, link) {
                Ok(digest) => k.part(b"=").part(digest.as_bytes()),
                Err(why) => k.part(b"!").part(why.to_string().as_bytes()),
            };
        }
        Ok(k.finish())
    }

    /// The output folder the cache belongs to: the folder that holds it.
    fn out(&self) -> &Path {
        self.root.parent().unwrap_or(Path::new("."))
    }

    fn stamp_path(&self, game: &str) -> PathBuf {
        crate::layout::stamp_path(&self.root, game)
    }

    /// The report and diagnostics of a game's last build when `key` matches it and every
    /// output it left is still there, untouched, with nothing added.
    pub fn up_to_date(
        &self,
        game: &str,
        key: &Key,
        outputs: &[PathBuf],
    ) -> Option<Standing> {
        let bytes = fs::read(self.stamp_path(game)).ok()?;
        let hex = key.hex();
        // A changed game's stamp is not parsed here only to be found another key's.
        if !stamp_may_match(&bytes, &hex) {
            return None;
        }
        let stamp: Stamp = serde_json::from_slice(&bytes).ok()?;
        if stamp.key != hex
            || stamp.summary.game != game
            || stamp.outputs != listing(self.out(), outputs)
        {
            return None;
        }
        lock(&self.kept).extend(stamp.objects);
        Some(Standing { report: stamp.summary, diagnostics: stamp.diagnostics })
    }

    /// What the last build of `game` wrote from cache objects, among its outputs still
    /// as it left them (same size and modification time): files with the object's key,
    /// archives with their entries' keys.
    pub fn last_objects(&self, game: &str, outputs: &[PathBuf]) -> LastObjects {
        let Some(mut stamp) = read_stamp(&self.stamp_path(game)) else {
            return LastObjects::default();
        };
        let foreign: HashSet<String> =
            std::mem::take(&mut stamp.foreign).into_iter().collect();
        let mut last = LastObjects {
            recorded: stamp
                .outputs
                .iter()
                .filter(|(path, _, _)| !foreign.contains(path))
                .map(|(path, len, mtime)| (self.out().join(path), (*len, *mtime)))
                .collect(),
            foreign: foreign.iter().map(|path| self.out().join(path)).collect(),
            ..LastObjects::default()
        };
        if stamp.from_objects.is_empty() && stamp.archives.is_empty() {
            return last;
        }
        let left: HashSet<(String, u64, u128)> = stamp.outputs.into_iter().collect();
        let listed = listing(self.out(), outputs);
        last.found = listed
            .iter()
            .map(|(path, len, mtime)| (self.out().join(path), (*len, *mtime)))
            .collect();
        for (path, _, _) in listed.into_iter().filter(|entry| left.contains(entry)) {
            if let Some(entries) = stamp.archives.remove(&path) {
                last.archives.insert(self.out().join(&path), entries);
            }
            if let Some(key) = stamp.from_objects.remove(&path) {
                last.files.insert(self.out().join(path), key);
            }
        }
        // Opened here, beside the loading of the sources, rather than by the stage.
        last.opened = last
            .archives
            .iter()
            .filter_map(|(path, entries)| {
                Some((path.clone(), LastArchive::open(path, entries)?))
            })
            .collect();
        last
    }

    /// Records a game's completed build: the files it left (`outputs`), the objects it
    /// used and the outputs it wrote from them (`written`'s files and archives).
    #[allow(clippy::too_many_arguments)]
    pub fn stamp(
        &self,
        game: &GameCache,
        id: &str,
        key: &Key,
        outputs: &[PathBuf],
        written: &Outputs,
        summary: &GameReport,
        diagnostics: Vec<StoredDiagnostic>,
    ) -> Result<()> {
        use rayon::join;
        let mut objects: Vec<String> = lock(&game.used).iter().map(Key::hex).collect();
        objects.sort_unstable();
        lock(&self.kept).extend(objects.iter().cloned());
        let base = self.out();
        // The listing and the records of objects are made side by side.
        let (outputs, (from_objects, archives)) = join(
            // A file the build did not put in place is as the listing at its start found
            // it, unless changed since: then the next build finds it changed.
            || stat_listing(base, outputs, |path| written.found_untouched(path)),
            || {
                join(
                    || {
                        written
                            .objects()
                            .into_iter()
                            .map(|(p, k)| (relative(base, &p), k))
                            .collect()
                    },
                    || {
                        written
                            .archives()
                            .into_iter()
                            .map(|(p, entries)| (relative(base, &p), entries))
                            .collect()
                    },
                )
            },
        );
        let foreign = written.foreign().iter().map(|p| relative(base, p)).collect();
        let stamp = Stamp {
            key: key.hex(),
            outputs,
            foreign,
            objects,
            from_objects,
            archives,
            summary: summary.clone(),
            diagnostics,
        };
        // Not waited onto the disk: a stamp lost with the machine makes the next build
        // look again (the outputs it records are on the disk already, by the commit).
        write_atomic_unsynced(&self.stamp_path(id), &stamp.to_json()?)?;
        Ok(())
    }

    /// Removes every object that neither this build's stamped games nor the stamps of
    /// up-to-date games used.
    ///
    /// A prune leaves a mark naming what it kept, and the first object a build writes
    /// removes it. While the mark stands, the objects are those it names (or fewer, when
    /// some were deleted by hand): when it names what this build keeps there is nothing to
    /// remove, and otherwise the objects to remove are among those it names and those this
    /// build wrote, so the objects' folders are not read. Without a mark (the first
    /// build, or one killed after writing an object) every object is looked at.
    pub fn prune(&self) -> Result<usize> {
        let used = lock(&self.kept);
        let now = Mark::of(&used);
        let mark = self.prune_mark();
        let wrote = self.unmarked.is_completed();
        // A mark of the same hash (its first line, read alone) names what this build keeps.
        if !wrote && Mark::read_hash(&mark).is_some_and(|h| h == now.hash) {
            return Ok(0);
        }
        let last = if wrote { lock(&self.last_mark).take() } else { Mark::read(&mark) };
        let mut removed = 0;
        match last {
            Some(last) => {
                let written = lock(&self.written);
                for name in last.names.iter().chain(written.iter()) {
                    if !used.contains(name) && self.remove_object(name)? {
                        removed += 1;
                    }
                }
            }
            None => {
                for path in files_under(&self.root.join("objects")) {
                    // The inverse of `named_object_path`: its folder's name, then its own.
                    let part = |p: Option<&Path>| {
                        p.and_then(Path::file_name)
                            .map(|n| n.to_string_lossy().into_owned())
                            .unwrap_or_default()
                    };
                    let name = format!("{}{}", part(path.parent()), part(Some(&path)));
                    if !used.contains(&name) {
                        fs::remove_file(&path)
                            .io(|| format!("failed to remove {}", path.display()))?;
                        removed += 1;
                    }
                }
            }
        }
        // A mark lost (the build killed now) makes the next build look again.
        write_atomic_unsynced(&mark, now.to_text().as_bytes())?;
        Ok(removed)
    }

    /// Removes the object named `name` (a key in hex); whether it was there.
    fn remove_object(&self, name: &str) -> Result<bool> {
        let path = self.named_object_path(name);
        match fs::remove_file(&path) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(e).io(|| format!("failed to remove {}", path.display())),
        }
    }

    /// The mark of the last prune.
    fn prune_mark(&self) -> PathBuf {
        self.root.join("pruned")
    }

    /// Removes the mark of the last prune, once per build, before the build writes an
    /// object.
    fn unmark(&self) -> Result<()> {
        let mut result = Ok(());
        self.unmarked.call_once(|| {
            let mark = self.prune_mark();
            *lock(&self.last_mark) = Mark::read(&mark);
            result = match fs::remove_file(&mark) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    Err(e).io(|| format!("failed to remove {}", mark.display()))
                }
                _ => Ok(()),
            };
        });
        result
    }
}

impl<'a> GameCache<'a> {
    /// A fresh view of `cache` for one game's build.
    pub fn new(cache: &'a Cache) -> Self {
        GameCache {
            cache,
            used: Mutex::default(),
            reused: AtomicUsize::new(0),
            made: Mutex::default(),
        }
    }

    /// The cache this is a view of.
    pub fn whole(&self) -> &'a Cache {
        self.cache
    }

    /// Starts a key for a kind of step (see [`Cache::key`]).
    pub fn key(&self, kind: &str) -> KeyBuilder {
        self.cache.key(kind)
    }

    /// The cached result for `key`, or `make`'s, which is then stored. `label` names the
    /// result in the build report when it is made.
    pub fn get_or_make(
        &self,
        key: &Key,
        label: impl FnOnce() -> String,
        make: impl FnOnce() -> Result<Vec<u8>>,
    ) -> Result<Vec<u8>> {
        let path = self.cache.object_path(key);
        lock(&self.used).insert(*key);
        if let Some(bytes) = read_object(&path) {
            self.reused.fetch_add(1, Ordering::Relaxed);
            return Ok(bytes);
        }
        let bytes = make()?;
        self.cache.unmark()?;
        let mut stored = Vec::with_capacity(bytes.len() + 32);
        stored.extend_from_slice(&bytes);
        stored.extend_from_slice(blake3::hash(&bytes).as_bytes());
        // A lost object is made again, so it needs no flush to disk.
        write_atomic_unsynced(&path, &stored)?;
        lock(&self.cache.written).push(key.hex());
        lock(&self.made).push(label());
        Ok(bytes)
    }

    /// The [`muster_render::Keep`] hook through this cache for `game`: each result kept
    /// under its label and parts, and named `<label> of <game>` when made; a failure to
    /// make one is an error of `kind`.
    pub fn keeper<'s>(
        &'s self,
        kind: ErrorKind,
        game: &'s str,
    ) -> Box<muster_render::Keep<'s>> {
        Box::new(
            move |label: &str,
                  parts: &[&[u8]],
                  make: &dyn Fn() -> std::result::Result<Vec<u8>, String>| {
                self.keep(kind, game, label, parts, make)
            },
        )
    }

    /// What [`GameCache::keeper`]'s hook does for one result.
    fn keep(
        &self,
        kind: ErrorKind,
        game: &str,
        label: &str,
        parts: &[&[u8]],
        make: &dyn Fn() -> std::result::Result<Vec<u8>, String>,
    ) -> std::result::Result<Vec<u8>, String> {
        let mut key = self.key("kept");
        key.part(label.as_bytes());
        for part in parts {
            key.part(part);
        }
        self.get_or_make(
            &key.finish(),
            || format!("{label} of {game}"),
            || make().map_err(|e| Error::new(kind, e)),
        )
        .map_err(|e| format!("{e:#}"))
    }

    /// A PNG of `svg` at `width` × `height` pixels recording `dpi`, from the cache or
    /// drawn now.
    pub fn png(
        &self,
        label: &str,
        svg: &str,
        width: u32,
        height: u32,
        dpi: u32,
    ) -> Result<Vec<u8>> {
        let picture = Picture { svg, width, height, dpi };
        let key = self.png_key(label, &picture);
        self.png_of(&key, label, &picture)
    }

    /// The key of the PNG of `picture` ([`GameCache::png`]), noted as asked for.
    pub fn png_key(&self, label: &str, picture: &Picture) -> Key {
        let Picture { svg, width, height, dpi } = *picture;
        let digest = blake3::hash(svg.as_bytes());
        self.digested_png_key(label, digest.as_bytes(), (width, height, dpi), &|| {
            svg.to_string()
        })
    }

    /// [`GameCache::png_key`] of the SVG whose BLAKE3 digest is `digest`, at `(width,
    /// height, dpi)`; `svg` makes the SVG, asked for only when recording.
    pub fn digested_png_key(
        &self,
        label: &str,
        digest: &[u8; 32],
        (width, height, dpi): (u32, u32, u32),
        svg: &dyn Fn() -> String,
    ) -> Key {
        if let Some(drawn) = &self.cache.drawn {
            lock(drawn).draws.push(DrawJob {
                label: label.to_string(),
                svg: svg(),
                width,
                height,
                dpi,
            });
        }
        self.key("png")
            .part(digest)
            .part(&width.to_le_bytes())
            .part(&height.to_le_bytes())
            .part(&dpi.to_le_bytes())
            .finish()
    }

    /// The PNG of `picture` under its key ([`GameCache::png_key`]), from the cache or
    /// drawn now.
    pub fn png_of(&self, key: &Key, label: &str, picture: &Picture) -> Result<Vec<u8>> {
        let Picture { svg, width, height, dpi } = *picture;
        self.get_or_make(
            key,
            || label.to_string(),
            || {
                muster_render::render_png(svg, width, height, Encoding::at(dpi)).map_err(
                    |e| {
                        Error::with_source(
                            ErrorKind::Render,
                            format!("failed to draw {label}"),
                            e,
                        )
                    },
                )
            },
        )
    }

    /// Counts the object `key` as used and reused without reading it: an output that
    /// holds it already is kept.
    pub fn reuse(&self, key: &Key) {
        self.reuse_all(std::slice::from_ref(key));
    }

    /// Counts each of the objects `keys` as [`GameCache::reuse`] does, under one lock.
    pub fn reuse_all(&self, keys: &[Key]) {
        lock(&self.used).extend(keys.iter().copied());
        self.reused.fetch_add(keys.len(), Ordering::Relaxed);
    }

    /// A PNG of bands drawn one under the other, each `(svg, height)` at `width` pixels:
    /// each band is drawn, filtered and deflated on its own and kept, so that a changed
    /// band is the only one drawn and encoded again; the bands join into the image without
    /// deflating the whole (or the whole comes from the cache).
    pub fn png_bands(
        &self,
        label: &str,
        bands: &[(String, u32)],
        width: u32,
        dpi: u32,
    ) -> Result<Vec<u8>> {
        use muster_render::png_bands::{PngBand, encode_band, join_bands};
        let encoding = Encoding::at(dpi);
        let keys: Vec<Key> = bands
            .iter()
            .map(|(svg, h)| {
                self.cache
                    .key("png band")
                    .part(svg.as_bytes())
                    .part(&width.to_le_bytes())
                    .part(&h.to_le_bytes())
                    .part(format!("{:?}", encoding.compression).as_bytes())
                    .finish()
            })
            .collect();
        let mut whole = self.cache.key("png-bands");
        whole.part(&dpi.to_le_bytes());
        for k in &keys {
            whole.part(k.0.as_bytes());
        }
        if let Some(drawn) = &self.cache.drawn {
            lock(drawn).draws.extend(bands.iter().map(|(svg, h)| DrawJob {
                label: label.to_string(),
                svg: svg.clone(),
                width,
                height: *h,
                dpi,
            }));
        }
        let height: u32 = bands.iter().map(|(_, h)| h).sum();
        let failed = |what: &str, e: muster_render::raster::RasterError| {
            Error::with_source(ErrorKind::Render, format!("failed to {what} {label}"), e)
        };
        self.joined(
            &whole.finish(),
            label,
            &keys,
            |i| format!("{label} band {i}"),
            |i| {
                let (svg, h) = &bands[i];
                let rgb = muster_render::raster::render_rgb(svg, width, *h)
                    .map_err(|e| failed("draw", e))?;
                let band = encode_band(&rgb, width, encoding.compression)
                    .map_err(|e| failed("encode", e))?;
                Ok(band.to_bytes())
            },
            |kept| {
                let bands = kept
                    .iter()
                    .map(|b| PngBand::from_bytes(b))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| failed("read the kept bands of", e))?;
                join_bands(&bands, width, height, encoding)
                    .map_err(|e| failed("encode", e))
            },
        )
    }

    /// Bytes joined from parts each kept in the cache under its own key in `parts`: the
    /// whole from the cache under `whole`, or joined by `join` from the parts in order
    /// ([`GameCache::parts`]). The parts stay cached for the next change even when the
    /// whole is reused, so a change makes only its own part again.
    pub fn joined(
        &self,
        whole: &Key,
        label: &str,
        parts: &[Key],
        part_label: impl Fn(usize) -> String + Sync,
        make: impl Fn(usize) -> Result<Vec<u8>> + Sync,
        join: impl FnOnce(Vec<Vec<u8>>) -> Result<Vec<u8>>,
    ) -> Result<Vec<u8>> {
        lock(&self.used).extend(parts.iter().copied());
        self.get_or_make(
            whole,
            || label.to_string(),
            || join(self.parts(parts, part_label, make)?),
        )
    }

    /// The parts kept in the cache under the keys `parts`, in order: each from the cache
    /// or made now by `make` (side by side).
    pub fn parts(
        &self,
        parts: &[Key],
        part_label: impl Fn(usize) -> String + Sync,
        make: impl Fn(usize) -> Result<Vec<u8>> + Sync,
    ) -> Result<Vec<Vec<u8>>> {
        use rayon::prelude::*;
        parts
            .par_iter()
            .enumerate()
            .map(|(i, key)| self.get_or_make(key, || part_label(i), || make(i)))
            .collect()
    }

    /// What the cache did for this game.
    pub fn report(&self) -> CacheReport {
        CacheReport {
            reused: self.reused.load(Ordering::Relaxed),
            made: lock(&self.made).clone(),
        }
    }

    /// Writes to `file` a reproducible zip of `files` and of the entries `fetched` gives
    /// (read one at a time as the archive is written: [`muster_package::archive::write_zip_from`]);
    /// returns its size and content ([`muster_package::archive::Zipped`]). Each entry to
    /// deflate is deflated on its own, side by side, and kept: an entry whose bytes did
    /// not change is copied as it was deflated before. An entry larger than [`MAX_PART`] is deflated in parts cut where its bytes say
    /// ([`content_parts`]), each kept on its own, so that a change deflates again only the
    /// parts it touches. The archive itself is not kept whole: writing it again from its
    /// entries costs less than storing it again at each change (a module is mostly images,
    /// stored as they are).
    pub fn zip(
        &self,
        label: &str,
        files: &BTreeMap<String, Vec<u8>>,
        fetched: &Fetched,
        file: &mut impl muster_package::archive::ZipOut,
    ) -> Result<(u64, String)> {
        let deflated = self.deflated_entries(label, files, fetched)?;
        let zipped =
            muster_package::archive::write_zip_from(file, files, &deflated, fetched)
                .map_err(|e| zip_failed(label, e))?;
        Ok((zipped.size, zipped.content))
    }

    /// Each entry of [`GameCache::zip`] to deflate, deflated (entry name → a one-entry
    /// zip), through the cache.
    fn deflated_entries(
        &self,
        label: &str,
        files: &BTreeMap<String, Vec<u8>>,
        fetched: &Fetched,
    ) -> Result<BTreeMap<String, Vec<u8>>> {
        use muster_package::archive::{
            DeflatedPart, deflated_entry, is_deflated, joined_entry,
        };
        use rayon::prelude::*;
        let failed = |e| zip_failed(label, e);
        if let Some(drawn) = &self.cache.drawn {
            let mut whole = files.clone();
            for name in fetched.names {
                let mut bytes = Vec::new();
                (fetched.fetch)(name, &mut bytes).map_err(failed)?;
                whole.insert(name.clone(), bytes);
            }
            lock(drawn).zips.push(whole);
        }
        type Entries<'f> = Vec<(&'f String, &'f Vec<u8>)>;
        let (large, small): (Entries, Entries) = files
            .iter()
            .filter(|(name, _)| is_deflated(name))
            .partition(|(_, bytes)| bytes.len() > MAX_PART);
        let keys: Vec<Key> = small
            .par_iter()
            .map(|(name, bytes)| {
                self.cache.key("zip entry").part(name.as_bytes()).part(bytes).finish()
            })
            .collect();
        let whole = self.parts(
            &keys,
            |i| format!("{} in {label}", small[i].0),
            |i| deflated_entry(small[i].0, small[i].1).map_err(failed),
        )?;
        let mut deflated: BTreeMap<String, Vec<u8>> =
            small.iter().map(|(name, _)| name.to_string()).zip(whole).collect();
        // Every large entry's parts, entry after entry: (entry, part's number, its bytes).
        let pieces: Vec<(usize, usize, &[u8])> = large
            .iter()
            .enumerate()
            .flat_map(|(i, (_, bytes))| {
                content_parts(bytes)
                    .into_iter()
                    .enumerate()
                    .map(move |(n, r)| (i, n, &bytes[r]))
            })
            .collect();
        let keys: Vec<Key> = pieces
            .par_iter()
            .map(|(_, _, bytes)| self.cache.key("zip part").part(bytes).finish())
            .collect();
        let kept = self.parts(
            &keys,
            |p| {
                format!("part {} of {} in {label}", pieces[p].1 + 1, large[pieces[p].0].0)
            },
            |p| Ok(DeflatedPart::of(pieces[p].2).map_err(failed)?.to_bytes()),
        )?;
        let mut kept = pieces.iter().zip(&kept).peekable();
        for (i, (name, _)) in large.iter().enumerate() {
            let mut parts = Vec::new();
            while let Some((_, part)) = kept.next_if(|((entry, _, _), _)| *entry == i) {
                parts.push(DeflatedPart::from_bytes(part).map_err(failed)?);
            }
            deflated
                .insert(name.to_string(), joined_entry(name, &parts).map_err(failed)?);
        }
        Ok(deflated)
    }
}

/// The error of an archive `label` that could not be zipped.
fn zip_failed(label: &str, e: muster_package::archive::ArchiveError) -> Error {
    Error::new(ErrorKind::Package, format!("failed to zip {label} ({e})"))
}

/// `path` as written in a stamp: relative to the output folder `base`.
/// The hash of what the loader reads at `path` under a game's folder `dir`: the file, or
/// what the link leads to when it leads to a regular file inside `dir`; otherwise why it
/// reads nothing there (a link leading out of the folder, or to a folder, a FIFO, a
/// device), which the loader reports when it meets the path. Nothing but a regular file
/// is read, so a FIFO or a device never holds the key up.
fn source_digest(
    dir: &Path,
    path: &Path,
    link: bool,
) -> std::result::Result<blake3::Hash, InputError> {
    let real = if link { resolve_inside(dir, path)? } else { path.to_path_buf() };
    let (file, _) = open_regular(&real)?;
    let mut hasher = blake3::Hasher::new();
    hasher.update_reader(file)?;
    Ok(hasher.finalize())
}

fn relative(base: &Path, path: &Path) -> String {
    path.strip_prefix(base).unwrap_or(path).display().to_string()
}

/// Reads an object, or nothing when it is missing or damaged.
fn read_object(path: &Path) -> Option<Vec<u8>> {
    let mut stored = fs::read(path).ok()?;
    let end = stored.len().checked_sub(32)?;
    let (bytes, hash) = stored.split_at(end);
    if blake3::hash(bytes).as_bytes() != hash {
        return None;
    }
    stored.truncate(end);
    Some(stored)
}

/// Whether the stamp `bytes` may be of the key `key`: `false` only when it opens, as a
/// stamp muster wrote does, with another key (its first field).
fn stamp_may_match(bytes: &[u8], key: &str) -> bool {
    match bytes.strip_prefix(br#"{"key":""#) {
        Some(rest) => {
            rest.strip_prefix(key.as_bytes()).is_some_and(|r| r.starts_with(b"\""))
        }
        None => true,
    }
}

/// The stamp at `path`, or nothing when it is missing or unreadable.
fn read_stamp(path: &Path) -> Option<Stamp> {
    serde_json::from_slice(&fs::read(path).ok()?).ok()
}

/// The files the last build of `game` wrote under the output folder `out`, from its
/// stamp in the cache, each with its size and modification time as that build left it;
/// `None` when there is no record of a build. Only paths inside the game's own outputs
/// ([`crate::layout::game_outputs`]) and without `..` are given, whatever the stamp says.
pub fn recorded_outputs(out: &Path, game: &str) -> Option<Vec<(PathBuf, Stated)>> {
    use std::path::Component;
    let stamp =
        read_stamp(&crate::layout::stamp_path(&crate::layout::cache_dir(out), game))?;
    let roots = crate::layout::game_outputs(out, game);
    let foreign: HashSet<String> = stamp.foreign.into_iter().collect();
    Some(
        stamp
            .outputs
            .into_iter()
            .filter(|(path, _, _)| {
                !foreign.contains(path)
                    && Path::new(path)
                        .components()
                        .all(|c| matches!(c, Component::Normal(_)))
            })
            .map(|(path, len, mtime)| (out.join(path), Stated { len, mtime }))
            .filter(|(path, _)| roots.iter().any(|r| path.starts_with(r)))
            .collect(),
    )
}

/// Path (relative to the output folder `base`), size and modification time of every file
/// under the given outputs (files or folders). The folders are read side by side, each
/// file looked at from its folder as the folder is read.
fn listing(base: &Path, outputs: &[PathBuf]) -> Vec<(String, u64, u128)> {
    use rayon::prelude::*;
    stated_files_of(outputs)
        .par_iter()
        .map(|(f, stated)| (relative(base, f), stated.len, stated.mtime))
        .collect()
}

/// The path (relative to `base`), size and modification time of each of `files`, stated
/// side by side unless `known` gives them; files gone meanwhile are left out.
fn stat_listing(
    base: &Path,
    files: &[PathBuf],
    known: impl Fn(&Path) -> Option<(u64, u128)> + Sync,
) -> Vec<(String, u64, u128)> {
    use rayon::prelude::*;
    files
        .par_iter()
        .filter_map(|f| {
            let (len, mtime) = match known(f) {
                Some(known) => known,
                None => {
                    let stated = Stated::of(&fs::metadata(f).ok()?);
                    (stated.len, stated.mtime)
                }
            };
            Some((relative(base, f), len, mtime))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::files_of;
    use std::io::Write;

    #[test]
    fn a_stamp_prints_as_serde_json_prints_it() {
        let stamp = Stamp {
            key: "k\"ey".into(),
            outputs: vec![("dist/a.vmod".into(), 3, 4), ("dist/b".into(), 0, 1 << 70)],
            foreign: vec!["dist/b".into()],
            objects: vec!["ab".into(), "cd".into()],
            from_objects: [("dist/x.png".into(), "ab".into())].into_iter().collect(),
            archives: [(
                "dist/a.vmod".into(),
                [("images/x.png".to_string(), "cd".to_string())].into_iter().collect(),
            )]
            .into_iter()
            .collect(),
            summary: GameReport { game: "g".into(), ..GameReport::default() },
            diagnostics: vec![],
        };
        assert_eq!(
            String::from_utf8(stamp.to_json().unwrap()).unwrap(),
            serde_json::to_string(&stamp).unwrap()
        );
    }

    #[test]
    fn a_stamp_of_another_key_is_told_by_its_opening() {
        let key = "ab".repeat(32);
        let stamp = Stamp {
            key: key.clone(),
            outputs: vec![("dist/g.vmod".into(), 1, 2)],
            foreign: Vec::new(),
            objects: vec!["ab/cd".into()],
            from_objects: BTreeMap::new(),
            archives: BTreeMap::new(),
            summary: GameReport::default(),
            diagnostics: Vec::new(),
        };
        let bytes = serde_json::to_vec(&stamp).unwrap();
        assert!(stamp_may_match(&bytes, &key));
        assert!(!stamp_may_match(&bytes, &"cd".repeat(32)));
        // A key that only begins the stamp's is another key.
        assert!(!stamp_may_match(&bytes, &key[..62]));
        // Another layout is parsed to know.
        let pretty = serde_json::to_vec_pretty(&stamp).unwrap();
        assert!(stamp_may_match(&pretty, &"cd".repeat(32)));
    }

    #[test]
    fn objects_are_reused_and_damaged_ones_made_again() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::open(dir.path().to_path_buf(), false).unwrap();
        let game = GameCache::new(&cache);
        let key = cache.key("test").part(b"input").finish();
        let made = game.get_or_make(&key, || "a".into(), || Ok(b"result".to_vec()));
        assert_eq!(made.unwrap(), b"result");
        let again = game.get_or_make(
            &key,
            || "a".into(),
            || Err(Error::new(ErrorKind::Render, "not again")),
        );
        assert_eq!(again.unwrap(), b"result");
        let report = game.report();
        assert_eq!((report.reused, report.made), (1, vec!["a".to_string()]));
        // Damage the object: it is made again.
        let path = cache.object_path(&key);
        let mut bytes = fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        fs::write(&path, bytes).unwrap();
        let other = GameCache::new(&cache);
        let remade = other.get_or_make(&key, || "b".into(), || Ok(b"result".to_vec()));
        assert_eq!(remade.unwrap(), b"result");
        assert_eq!(other.report().made, vec!["b".to_string()]);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_game_key_follows_links_to_what_they_lead_to_and_never_reads_a_fifo() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::open(dir.path().join("cache"), false).unwrap();
        let game = dir.path().join("g");
        fs::create_dir_all(game.join("data")).unwrap();
        fs::write(game.join("data/a.yaml"), b"a").unwrap();
        fs::write(game.join("data/b.yaml"), b"b").unwrap();
        symlink("data/a.yaml", game.join("oob.yaml")).unwrap();
        let key = || cache.game_key(&game, "g", "").unwrap();
        let first = key();
        assert_eq!(key(), first, "the same sources, the same key");

        fs::remove_file(game.join("oob.yaml")).unwrap();
        symlink("data/b.yaml", game.join("oob.yaml")).unwrap();
        let retargeted = key();
        assert_ne!(retargeted, first, "the link leads to another file");

        // A link out of the game, and a link to a FIFO with no writer: the key is made at
        // once, and changes with where the outside link leads.
        fs::write(dir.path().join("outside.yaml"), b"o").unwrap();
        symlink("../outside.yaml", game.join("rules.yaml")).unwrap();
        let fifo = game.join("pipe");
        rustix::fs::mkfifoat(rustix::fs::CWD, &fifo, rustix::fs::Mode::RUSR).unwrap();
        symlink("pipe", game.join("errata.yaml")).unwrap();
        let with_links = key();
        assert_ne!(with_links, retargeted);
        fs::remove_file(game.join("rules.yaml")).unwrap();
        fs::write(dir.path().join("elsewhere.yaml"), b"o").unwrap();
        symlink("../elsewhere.yaml", game.join("rules.yaml")).unwrap();
        assert_ne!(key(), with_links, "the outside link leads elsewhere");
    }

    #[test]
    fn keys_separate_their_parts() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::open(dir.path().to_path_buf(), false).unwrap();
        let ab = cache.key("k").part(b"a").part(b"b").finish();
        let a_b = cache.key("k").part(b"ab").finish();
        assert_ne!(ab, a_b);
        assert_ne!(ab, cache.key("other").part(b"a").part(b"b").finish());
    }

    /// The zip `game` writes of `files` and of what `fetched` gives, read back from its
    /// file, whose size it returned.
    fn zipped(
        game: &GameCache,
        files: &BTreeMap<String, Vec<u8>>,
        fetched: &Fetched,
    ) -> Vec<u8> {
        let mut file = tempfile::tempfile().unwrap();
        let (size, _) = game.zip("g.vmod", files, fetched, &mut file).unwrap();
        let mut bytes = Vec::new();
        use std::io::{Read, Seek};
        file.rewind().unwrap();
        file.read_to_end(&mut bytes).unwrap();
        assert_eq!(size, bytes.len() as u64);
        bytes
    }

    #[test]
    fn a_large_entry_is_deflated_again_only_in_the_parts_a_change_touches() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::open(dir.path().join("cache"), false).unwrap();
        let mut state = 11u64;
        let text: Vec<u8> = (0..3 * MAX_PART)
            .map(|_| {
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                b"{}[]:,abcdefgh0123456789"[(state >> 33) as usize % 24]
            })
            .collect();
        let mut files = BTreeMap::new();
        files.insert("big.json".to_string(), text.clone());
        files.insert("small.xml".to_string(), b"<a/>".to_vec());
        files.insert("images/a.png".to_string(), vec![1, 2, 3]);
        let game = GameCache::new(&cache);
        let first = zipped(&game, &files, &Fetched::none());
        let parts = content_parts(&text).len();
        assert!(parts > 3);
        assert_eq!(game.report().made.len(), parts + 1, "every part and the small entry");
        // One byte more in the middle: one or two parts are deflated again.
        let mut edited = text.clone();
        edited.insert(text.len() / 2, b'7');
        files.insert("big.json".to_string(), edited.clone());
        let again = GameCache::new(&cache);
        let second = zipped(&again, &files, &Fetched::none());
        let made = again.report().made;
        assert!(!made.is_empty() && made.len() <= 2, "{made:?}");
        assert!(made.iter().all(|m| m.contains("of big.json in g.vmod")), "{made:?}");
        let mut archive = muster_package::archive::Archive::open(second).unwrap();
        assert_eq!(archive.read("big.json").unwrap(), edited);
        assert_eq!(archive.read("small.xml").unwrap(), b"<a/>");
        // The same files zip to the same bytes, from the cache or not.
        files.insert("big.json".to_string(), text);
        let fresh = Cache::open(dir.path().join("other"), false).unwrap();
        assert_eq!(zipped(&GameCache::new(&fresh), &files, &Fetched::none()), first);
        assert_eq!(zipped(&GameCache::new(&cache), &files, &Fetched::none()), first);
        // An image fetched as the archive is written gives the same archive, and the
        // benchmark's record holds its bytes.
        let recording = Cache::open(dir.path().join("recording"), true).unwrap();
        let image = files.remove("images/a.png").unwrap();
        let fetch = |name: &str, bytes: &mut Vec<u8>| {
            assert_eq!(name, "images/a.png");
            bytes.extend_from_slice(&image);
            Ok(())
        };
        let names = ["images/a.png".to_string()].into();
        let fetched = Fetched { names: &names, fetch: &fetch, lying: &|_| None };
        assert_eq!(zipped(&GameCache::new(&recording), &files, &fetched), first);
        let zips = recording.take_recorded().zips;
        assert_eq!(zips.len(), 1);
        assert_eq!(zips[0].get("images/a.png"), Some(&image));
    }

    /// A temporary folder with an empty output folder `out` in it, a cache beside it, and
    /// a game key of that cache: what a stamp test starts from.
    fn stamping() -> (tempfile::TempDir, PathBuf, Cache, Key) {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        fs::create_dir_all(&out).unwrap();
        let cache = Cache::open(dir.path().join("cache"), false).unwrap();
        let key = cache.key("game").part(b"x").finish();
        (dir, out, cache, key)
    }

    #[test]
    fn the_next_build_knows_an_archive_s_entries_while_the_archive_is_as_left() {
        let (_dir, out, cache, key) = stamping();
        let (archive, image) = (out.join("g.vmod"), out.join("a.png"));
        let written = Outputs::default();
        let entries: BTreeMap<String, String> =
            [("images/a.png".to_string(), "k1".to_string())].into_iter().collect();
        let fill = |f: &mut crate::writeback::Streamed| {
            f.write_all(b"zip").io(|| "writes".to_string())
        };
        written.write_archive(&archive, fill, entries.clone()).unwrap();
        written.write_object(&image, "k1", b"png").unwrap();
        written.commit().unwrap();
        let owned = [archive.clone(), image.clone()];
        let summary = GameReport { game: "g".into(), ..GameReport::default() };
        let game = GameCache::new(&cache);
        cache.stamp(&game, "g", &key, &owned, &written, &summary, vec![]).unwrap();
        let last = cache.last_objects("g", &owned);
        assert_eq!(last.archives.get(&archive), Some(&entries));
        assert_eq!(last.files.get(&image).map(String::as_str), Some("k1"));
        // An archive changed since is not trusted; the other output still is.
        fs::write(&archive, b"other zip").unwrap();
        let last = cache.last_objects("g", &owned);
        assert!(last.archives.is_empty());
        assert_eq!(last.files.len(), 1);
    }

    #[test]
    fn a_stamp_records_an_untouched_output_as_found_and_a_new_one_as_put_in_place() {
        let (_dir, out, cache, key) = stamping();
        let summary = GameReport { game: "g".into(), ..GameReport::default() };
        let (a, b) = (out.join("a.png"), out.join("b.json"));
        let owned = [a.clone(), b.clone()];
        let first = Outputs::default();
        first.write_object(&a, "k1", b"png").unwrap();
        first.write(&b, b"one").unwrap();
        first.commit().unwrap();
        let game = GameCache::new(&cache);
        cache.stamp(&game, "g", &key, &owned, &first, &summary, vec![]).unwrap();
        let meta = |p: &Path| -> (u64, u128) {
            let stated = Stated::of(&fs::metadata(p).unwrap());
            (stated.len, stated.mtime)
        };
        let a_found = meta(&a);
        // The next build keeps `a` and writes `b` again; meanwhile `a` is touched.
        let second = Outputs::with_last(cache.last_objects("g", &owned));
        assert!(second.keep_object(&a, "k1"));
        second.write(&b, b"two, longer").unwrap();
        second.commit().unwrap();
        let later = std::time::SystemTime::now() + std::time::Duration::from_secs(3600);
        fs::File::options().write(true).open(&a).unwrap().set_modified(later).unwrap();
        let game = GameCache::new(&cache);
        cache.stamp(&game, "g", &key, &owned, &second, &summary, vec![]).unwrap();
        let stamp = read_stamp(&cache.stamp_path("g")).unwrap();
        let recorded = |p: &Path| -> (u64, u128) {
            let rel = relative(cache.out(), p);
            let (_, len, mtime) = stamp.outputs.iter().find(|o| o.0 == rel).unwrap();
            (*len, *mtime)
        };
        assert_eq!(recorded(&a), a_found, "as the build found it, not as touched since");
        assert_eq!(recorded(&b), meta(&b), "as put in place");
        // So the build after finds `a` changed and does not keep it unread.
        let third = cache.last_objects("g", &owned);
        assert!(!third.files.contains_key(&a), "{:?}", third.files);
    }

    #[test]
    fn stamps_notice_touched_outputs_and_prune_drops_unused_objects() {
        let (dir, out, cache, key) = stamping();
        fs::write(out.join("a.png"), b"one").unwrap();
        let summary = GameReport { game: "g".into(), ..GameReport::default() };
        let k1 = cache.key("o").part(b"1").finish();
        let k2 = cache.key("o").part(b"2").finish();
        let game = GameCache::new(&cache);
        game.get_or_make(&k1, String::new, || Ok(vec![1])).unwrap();
        cache
            .stamp(
                &game,
                "g",
                &key,
                &files_of(std::slice::from_ref(&out)),
                &Outputs::default(),
                &summary,
                vec![],
            )
            .unwrap();
        assert_eq!(
            cache
                .up_to_date("g", &key, std::slice::from_ref(&out))
                .map(|s| s.report.game),
            Some(summary.game)
        );
        let other = cache.key("game").part(b"y").finish();
        assert!(cache.up_to_date("g", &other, std::slice::from_ref(&out)).is_none());
        fs::write(out.join("b.png"), b"two").unwrap();
        assert!(cache.up_to_date("g", &key, std::slice::from_ref(&out)).is_none());

        // An unstamped build's objects go; a stamped game's stay.
        GameCache::new(&cache).get_or_make(&k2, String::new, || Ok(vec![2])).unwrap();
        let fresh = Cache::open(dir.path().join("cache"), false).unwrap();
        fs::remove_file(out.join("b.png")).unwrap();
        assert!(fresh.up_to_date("g", &key, std::slice::from_ref(&out)).is_some());
        assert_eq!(fresh.prune().unwrap(), 1);
        assert!(fresh.object_path(&k1).is_file());
        assert!(!fresh.object_path(&k2).exists());

        // A later build that writes an object looks again: what it did not keep goes,
        // though the last prune kept the same set.
        let later = Cache::open(dir.path().join("cache"), false).unwrap();
        assert!(later.up_to_date("g", &key, std::slice::from_ref(&out)).is_some());
        GameCache::new(&later).get_or_make(&k2, String::new, || Ok(vec![2])).unwrap();
        assert!(!later.prune_mark().exists(), "the object removed the mark");
        assert_eq!(later.prune().unwrap(), 1);
        assert!(!later.object_path(&k2).exists());
        assert!(later.object_path(&k1).is_file());
        // A build that writes none keeps the same set: the mark says there is nothing to
        // remove.
        let same = Cache::open(dir.path().join("cache"), false).unwrap();
        assert!(same.up_to_date("g", &key, std::slice::from_ref(&out)).is_some());
        assert!(same.prune_mark().is_file());
        assert_eq!(same.prune().unwrap(), 0);
        // One that keeps a different set looks again.
        let none = Cache::open(dir.path().join("cache"), false).unwrap();
        assert_eq!(none.prune().unwrap(), 1);
        assert!(!none.object_path(&k1).exists());
    }

    #[test]
    fn objects_reused_together_are_counted_each_and_kept_by_the_stamp() {
        let (dir, out, cache, key) = stamping();
        let keys: Vec<Key> =
            (0..3u8).map(|i| cache.key("o").part(&[i]).finish()).collect();
        let made = GameCache::new(&cache);
        for k in &keys {
            made.get_or_make(k, String::new, || Ok(vec![1])).unwrap();
        }
        // The next build reuses two of them at once and one alone, and makes none.
        let next = Cache::open(dir.path().join("cache"), false).unwrap();
        let game = GameCache::new(&next);
        game.reuse_all(&keys[..2]);
        game.reuse(&keys[2]);
        game.reuse_all(&[]);
        assert_eq!(game.report().reused, 3);
        assert!(game.report().made.is_empty());
        let summary = GameReport { game: "g".into(), ..GameReport::default() };
        let outputs = files_of(std::slice::from_ref(&out));
        next.stamp(&game, "g", &key, &outputs, &Outputs::default(), &summary, vec![])
            .unwrap();
        assert_eq!(next.prune().unwrap(), 0, "every reused object is kept");
        assert!(keys.iter().all(|k| next.object_path(k).is_file()));
    }

    #[test]
    fn a_prune_after_a_marked_one_removes_what_the_mark_names_and_the_build_wrote() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("cache");
        let open = || Cache::open(root.clone(), false).unwrap();
        let first = open();
        let keys: Vec<Key> =
            (0..4u8).map(|i| first.key("o").part(&[i]).finish()).collect();
        let write = |cache: &Cache, key: &Key| {
            GameCache::new(cache).get_or_make(key, String::new, || Ok(vec![1])).unwrap();
        };
        // The first prune has no mark: it looks at every object.
        write(&first, &keys[0]);
        write(&first, &keys[1]);
        lock(&first.kept).insert(keys[0].hex());
        assert_eq!(first.prune().unwrap(), 1);
        assert!(
            first.object_path(&keys[0]).is_file()
                && !first.object_path(&keys[1]).exists()
        );

        // An object put there by other means while the mark stands is not looked at; what
        // the mark names and what the build wrote is, and what it does not keep goes.
        let stray = first.object_path(&keys[3]);
        fs::create_dir_all(stray.parent().unwrap()).unwrap();
        fs::write(&stray, b"stray").unwrap();
        let second = open();
        write(&second, &keys[2]);
        lock(&second.kept).insert(keys[2].hex());
        assert_eq!(second.prune().unwrap(), 1, "the object the mark named");
        assert!(!second.object_path(&keys[0]).exists());
        assert!(second.object_path(&keys[2]).is_file());
        assert!(stray.is_file());

        // A build killed after writing an object leaves no mark: the next prune looks at
        // every object again, the stray one too.
        let killed = open();
        write(&killed, &keys[1]);
        assert!(!killed.prune_mark().exists());
        drop(killed);
        let after = open();
        lock(&after.kept).insert(keys[2].hex());
        assert_eq!(after.prune().unwrap(), 2);
        assert!(!after.object_path(&keys[1]).exists() && !stray.exists());
        assert!(after.object_path(&keys[2]).is_file());
        assert_eq!(Mark::read(&after.prune_mark()), Some(Mark::of(&lock(&after.kept))));
    }
}
