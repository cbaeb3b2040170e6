//! [`FaceArts`]: every side of every counter and marker of a game, drawn once for the fit
//! check, the counter images, the print sheets, the contact sheet and the module.
//!
//! Sides drawn from a template are drawn in runs of [`RUN`] counters, each through a
//! [`Keep`] hook: a caller that keeps what a run drew (under the run's recipes, see
//! [`recipe`]) draws only the run of a changed counter again.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use muster_model::{Game, Unit};
use rayon::prelude::*;

use crate::counter::{
    CounterArt, Face, SAFE_MARGIN, counter_fragment, faces, recipe, standalone_svg,
    style_recipe,
};
use crate::template::{Margins, Misfit};

/// Makes a costly result, or gives back what an earlier build made from the same parts:
/// `(label, parts, make)`, where `make` is a function of `parts` alone. The caller chooses
/// how (by calling `make`, or through a cache).
pub type Keep<'a> = dyn Fn(&str, &[&[u8]], &dyn Fn() -> Result<Vec<u8>, String>) -> Result<Vec<u8>, String>
    + Sync
    + 'a;

/// Counters drawn in one kept run.
pub const RUN: usize = 64;

/// One side, drawn without bleed and with the print sheets' bleed.
#[derive(Debug, Clone)]
struct Drawn {
    art: CounterArt,
    bled: String,
    /// The size in inches (as bits) and digest of the side's [`standalone_svg`], once asked.
    standalone: OnceLock<(u64, [u8; 32])>,
}

impl Drawn {
    fn of(game: &Game, unit: &Unit, face: Face, margins: Margins) -> Drawn {
        Drawn {
            art: counter_fragment(game, unit, face, Margins { bleed: 0.0, ..margins }),
            bled: counter_fragment(game, unit, face, margins).fragment,
            standalone: OnceLock::new(),
        }
    }

    /// [`Drawn::of`], with the digest of its [`standalone_svg`] at `size_in` inches.
    fn sized(
        game: &Game,
        unit: &Unit,
        face: Face,
        margins: Margins,
        size_in: f64,
    ) -> Drawn {
        let drawn = Drawn::of(game, unit, face, margins);
        let digest = digest(&drawn.art, size_in);
        drawn.standalone.get_or_init(|| (size_in.to_bits(), digest));
        drawn
    }
}

/// The BLAKE3 digest of `art`'s [`standalone_svg`] at `size_in` inches.
fn digest(art: &CounterArt, size_in: f64) -> [u8; 32] {
    *blake3::hash(standalone_svg(art, size_in).as_bytes()).as_bytes()
}

/// Every side of every counter and marker of a game, drawn once without bleed and once
/// with the print sheets' bleed, both with the same safe margin.
#[derive(Debug)]
pub struct FaceArts {
    /// By counter id, front then back. The sides of an id given to more than one counter
    /// are not kept, but drawn when asked for.
    arts: HashMap<String, [Option<Drawn>; 2]>,
    /// The bleed the `bled` fragments are drawn with and the safe margin of all, in
    /// counter units.
    margins: Margins,
}

impl Default for FaceArts {
    /// No sides drawn yet: each is drawn when asked for, without bleed, with muster's
    /// [`SAFE_MARGIN`].
    fn default() -> Self {
        FaceArts {
            arts: HashMap::new(),
            margins: Margins { bleed: 0.0, safe: SAFE_MARGIN },
        }
    }
}

impl FaceArts {
    /// Draws every side of every counter and marker of `game`, side by side; the margins
    /// are the print sheets' (in counter units, see [`crate::sheet::art_margins`]).
    pub fn draw(game: &Game, margins: Margins) -> Self {
        let counters = counters(game);
        let drawn = counters
            .par_iter()
            .map(|unit| {
                faces(unit)
                    .into_iter()
                    .map(|f| Drawn::of(game, unit, f, margins))
                    .collect()
            })
            .collect();
        Self::of(&counters, drawn, margins)
    }

    /// [`FaceArts::draw`], drawing the sides made from a template in runs of [`RUN`]
    /// counters through `keep`, whose parts are the game's [`style_recipe`], the margins,
    /// the counters' size and each side's [`recipe`]. A run keeps with its sides the
    /// digests of their SVGs at `size_in` inches ([`FaceArts::standalone_digest`]). Sides
    /// drawn from the publisher's own art are drawn each time (they are a copy of it).
    /// Fails only when `keep` fails.
    pub fn draw_kept(
        game: &Game,
        margins: Margins,
        size_in: f64,
        keep: &Keep,
    ) -> Result<Self, String> {
        let counters = counters(game);
        let style = style_recipe(game);
        let runs = counters
            .par_chunks(RUN)
            .enumerate()
            .map(|(i, run)| draw_run(game, run, i, (margins, size_in), &style, keep))
            .collect::<Result<Vec<_>, String>>()?;
        Ok(Self::of(&counters, runs.into_iter().flatten().collect(), margins))
    }

    /// The arts of `counters`, each with its sides as drawn.
    fn of(counters: &[&Unit], drawn: Vec<Vec<Drawn>>, margins: Margins) -> Self {
        let mut arts: HashMap<String, [Option<Drawn>; 2]> = HashMap::new();
        let mut shared = HashSet::new();
        for (unit, sides) in counters.iter().zip(drawn) {
            if arts.contains_key(&unit.id) {
                shared.insert(unit.id.clone());
            }
            let mut both = [None, None];
            for (face, side) in faces(unit).into_iter().zip(sides) {
                both[face.index()] = Some(side);
            }
            arts.insert(unit.id.clone(), both);
        }
        arts.retain(|id, _| !shared.contains(id));
        Self { arts, margins }
    }

    fn kept(&self, unit: &Unit, face: Face) -> Option<&Drawn> {
        self.arts.get(unit.id.as_str())?[face.index()].as_ref()
    }

    /// The art of one side of `unit`, as [`counter_fragment`] draws it without bleed.
    pub fn get<'a>(
        &'a self,
        game: &Game,
        unit: &Unit,
        face: Face,
    ) -> Cow<'a, CounterArt> {
        match self.kept(unit, face) {
            Some(d) => Cow::Borrowed(&d.art),
            None => Cow::Owned(counter_fragment(
                game,
                unit,
                face,
                Margins { bleed: 0.0, ..self.margins },
            )),
        }
    }

    /// The BLAKE3 digest of [`standalone_svg`] of one side of `unit` at `size_in` inches,
    /// which keys its image: worked out once for the first size asked, which the counter
    /// images and the module both ask for.
    pub fn standalone_digest(
        &self,
        game: &Game,
        unit: &Unit,
        face: Face,
        size_in: f64,
    ) -> [u8; 32] {
        let digest = || digest(&self.get(game, unit, face), size_in);
        match self.kept(unit, face) {
            Some(d) => {
                match *d.standalone.get_or_init(|| (size_in.to_bits(), digest())) {
                    (size, known) if size == size_in.to_bits() => known,
                    _ => digest(),
                }
            }
            None => digest(),
        }
    }

    /// The SVG fragment of one side of `unit` as [`counter_fragment`] draws it with
    /// `bleed` (counter units).
    pub fn bled<'a>(
        &'a self,
        game: &Game,
        unit: &Unit,
        face: Face,
        bleed: f64,
    ) -> Cow<'a, str> {
        match self.kept(unit, face) {
            Some(d) if self.margins.bleed == bleed => Cow::Borrowed(&d.bled),
            _ => Cow::Owned(
                counter_fragment(game, unit, face, Margins { bleed, ..self.margins })
                    .fragment,
            ),
        }
    }
}

/// Every counter and marker of a game, in the manifest's order.
fn counters(game: &Game) -> Vec<&Unit> {
    game.units.iter().chain(&game.markers).collect()
}

/// The sides of one run of counters (number `index`) with `bleed` and their digests at
/// `size_in` inches: those drawn from a template through `keep`, the others now.
fn draw_run(
    game: &Game,
    run: &[&Unit],
    index: usize,
    (margins, size_in): (Margins, f64),
    style: &[u8],
    keep: &Keep,
) -> Result<Vec<Vec<Drawn>>, String> {
    let sides: Vec<(usize, &Unit, Face)> = run
        .iter()
        .enumerate()
        .flat_map(|(i, u)| faces(u).into_iter().map(move |f| (i, *u, f)))
        .collect();
    let recipes: Vec<Option<Vec<u8>>> =
        sides.iter().map(|(_, u, f)| recipe(game, u, *f)).collect();
    let templated: Vec<(&Unit, Face)> = sides
        .iter()
        .zip(&recipes)
        .filter(|(_, r)| r.is_some())
        .map(|((_, u, f), _)| (*u, *f))
        .collect();
    let draw = || -> Vec<Drawn> {
        templated
            .iter()
            .map(|(u, f)| Drawn::sized(game, u, *f, margins, size_in))
            .collect()
    };
    let (bleed_bytes, safe_bytes, size_bytes) =
        (margins.bleed.to_le_bytes(), margins.safe.to_le_bytes(), size_in.to_le_bytes());
    let mut parts: Vec<&[u8]> = vec![style, &bleed_bytes, &safe_bytes, &size_bytes];
    parts.extend(recipes.iter().flatten().map(Vec::as_slice));
    let label = format!("counter sides run {}", index + 1);
    let bytes = keep(&label, &parts, &|| Ok(encode(&draw())))?;
    // What an earlier build kept and cannot be read is drawn again.
    let mut drawn = decode(&bytes, size_in)
        .filter(|d| d.len() == templated.len())
        .unwrap_or_else(draw)
        .into_iter();
    let mut out: Vec<Vec<Drawn>> = vec![Vec::with_capacity(2); run.len()];
    for ((i, unit, face), recipe) in sides.iter().zip(&recipes) {
        let side = recipe.as_ref().and_then(|_| drawn.next());
        out[*i].push(side.unwrap_or_else(|| Drawn::of(game, unit, *face, margins)));
    }
    Ok(out)
}

/// The bytes of drawn sides, as [`decode`] reads them: each with the digest of its SVG
/// alone, worked out when it was drawn.
fn encode(drawn: &[Drawn]) -> Vec<u8> {
    let mut out = Vec::with_capacity(drawn.len() * 4096);
    put(&mut out, &(drawn.len() as u64).to_le_bytes());
    for d in drawn {
        put(&mut out, d.art.fragment.as_bytes());
        put(&mut out, d.bled.as_bytes());
        put(&mut out, d.art.template.as_bytes());
        put(&mut out, d.standalone.get().map_or(&[][..], |(_, digest)| &digest[..]));
        put(&mut out, &(d.art.unknown_values as u64).to_le_bytes());
        put(&mut out, &(d.art.misfits.len() as u64).to_le_bytes());
        for m in &d.art.misfits {
            put(&mut out, m.field.as_bytes());
            put(&mut out, m.text.as_bytes());
            put(&mut out, &m.width.to_le_bytes());
            put(&mut out, &m.room.to_le_bytes());
            put(&mut out, &m.min_size.to_le_bytes());
            put(&mut out, &[u8::from(m.omitted)]);
        }
    }
    out
}

/// Appends `bytes` after their length.
fn put(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
    out.extend_from_slice(bytes);
}

/// The sides [`encode`] wrote, their digests those of their SVGs at `size_in` inches, or
/// nothing when the bytes are not what it writes.
fn decode(bytes: &[u8], size_in: f64) -> Option<Vec<Drawn>> {
    let mut r = Reader(bytes);
    let count = r.number()?;
    let mut drawn = Vec::new();
    for _ in 0..count {
        let fragment = r.text()?;
        let bled = r.text()?;
        let template = r.text()?;
        let digest: [u8; 32] = r.field()?.try_into().ok()?;
        let unknown_values = usize::try_from(r.number()?).ok()?;
        let misfits = (0..r.number()?)
            .map(|_| {
                Some(Misfit {
                    field: r.text()?,
                    text: r.text()?,
                    width: r.float()?,
                    room: r.float()?,
                    min_size: r.float()?,
                    omitted: match r.field()? {
                        [0] => false,
                        [1] => true,
                        _ => return None,
                    },
                })
            })
            .collect::<Option<Vec<_>>>()?;
        drawn.push(Drawn {
            art: CounterArt { fragment, unknown_values, misfits, template },
            bled,
            standalone: OnceLock::from((size_in.to_bits(), digest)),
        });
    }
    r.0.is_empty().then_some(drawn)
}

/// Reads what [`put`] wrote.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn field(&mut self) -> Option<&'a [u8]> {
        let (len, rest) = self.0.split_first_chunk::<8>()?;
        let len = usize::try_from(u64::from_le_bytes(*len)).ok()?;
        let (field, rest) = rest.split_at_checked(len)?;
        self.0 = rest;
        Some(field)
    }

    fn text(&mut self) -> Option<String> {
        String::from_utf8(self.field()?.to_vec()).ok()
    }

    fn number(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.field()?.try_into().ok()?))
    }

    fn float(&mut self) -> Option<f64> {
        Some(f64::from_le_bytes(self.field()?.try_into().ok()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drawn_sides_read_back_as_written() {
        let drawn = vec![
            Drawn {
                art: CounterArt {
                    fragment: "<g>ä</g>".into(),
                    unknown_values: 3,
                    misfits: vec![Misfit {
                        field: "name".into(),
                        text: "1st Armoured".into(),
                        width: 41.5,
                        room: 38.25,
                        min_size: 6.0,
                        omitted: true,
                    }],
                    template: "templates/unit.svg".into(),
                },
                bled: "<g/>".into(),
                standalone: OnceLock::from((0.5f64.to_bits(), [7; 32])),
            },
            Drawn {
                art: CounterArt {
                    fragment: String::new(),
                    unknown_values: 0,
                    misfits: vec![],
                    template: "muster's unit template".into(),
                },
                bled: String::new(),
                standalone: OnceLock::from((0.5f64.to_bits(), [0; 32])),
            },
        ];
        let bytes = encode(&drawn);
        let back = decode(&bytes, 0.5).unwrap();
        assert_eq!(back.len(), 2);
        for (a, b) in drawn.iter().zip(&back) {
            assert_eq!(a.art.fragment, b.art.fragment);
            assert_eq!(a.art.unknown_values, b.art.unknown_values);
            assert_eq!(a.art.misfits, b.art.misfits);
            assert_eq!(a.art.template, b.art.template);
            assert_eq!(a.bled, b.bled);
            assert_eq!(a.standalone.get(), b.standalone.get());
        }
        // Read for another size, the digests are of that size: the size is part of
        // what keeps a run, so a run kept at one size is read at that size only.
        let other = decode(&bytes, 0.75).unwrap();
        assert_eq!(other[0].standalone.get(), Some(&(0.75f64.to_bits(), [7; 32])));
        // A side kept without its digest is not read.
        let mut bare = drawn.clone();
        bare[1].standalone = OnceLock::new();
        assert!(decode(&encode(&bare), 0.5).is_none());
        // Bytes cut short or with more after them are not read.
        for cut in [1, 8, bytes.len() / 2, bytes.len() - 1] {
            assert!(decode(&bytes[..cut], 0.5).is_none(), "{cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode(&longer, 0.5).is_none());
    }
}
