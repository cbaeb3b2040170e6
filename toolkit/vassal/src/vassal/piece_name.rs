//! A piece's name as VASSAL shows it (`GamePiece.getName()` of the outermost trait): the
//! BasicPiece's name or the outermost Basic Name trait's, then each Layer's prefix or
//! suffix at its current level and each Text Label's name format, from the inside out.

use super::encoder::decode;
use super::piece::{Piece, Trait};

impl Piece {
    /// The name VASSAL gives the piece as saved (`Decorator.getName()`).
    pub fn shown_name(&self) -> String {
        self.name_and_gaps().0
    }

    /// What the name VASSAL shows refers to that muster does not evaluate: expressions
    /// (`{…}`) and properties other than the piece's own markers and dynamic properties.
    /// Where there are any, [`Piece::shown_name`] keeps them as written.
    pub fn name_gaps(&self) -> Vec<String> {
        self.name_and_gaps().1
    }

    fn name_and_gaps(&self) -> (String, Vec<String>) {
        let mut gaps = Vec::new();
        let mut name = self.basic_name();
        for t in self.traits.iter().rev().skip(1) {
            name = match t.id() {
                "emb2" => self.current_layer_name(t, &name, &mut gaps),
                "emb" => old_layer_name(t, &name),
                "label" => self.label_name(t, name, &mut gaps),
                "obs" => masked_name(t, name),
                // A piece hidden by a player (`Hideable`) has no name to the others.
                "hide" if t.state != "null" => String::new(),
                _ => name,
            };
        }
        (name, gaps)
    }

    /// A layer's name at its level: the level saved, or, for a layer that follows a
    /// property (`Embellishment.checkPropertyLevel`), the property's value less the first
    /// level's value, counted from 1 and kept within the levels.
    fn current_layer_name(
        &self,
        t: &Trait,
        inner: &str,
        gaps: &mut Vec<String>,
    ) -> String {
        let fields = t.fields();
        let follows = fields.get(21).is_some_and(|f| f == "true");
        let property = fields.get(22).map_or("", String::as_str);
        let named = decode(fields.get(16).map_or("", String::as_str), ',')
            .iter()
            .any(|n| !n.is_empty());
        // A layer whose levels have no names leaves the name as it is at every level.
        if !follows || property.is_empty() || !named {
            return layer_name(t, inner, &t.state);
        }
        let Some(value) = self.own_property(property) else {
            gaps.push(format!("${property}$"));
            return layer_name(t, inner, &t.state);
        };
        let first: i64 = fields.get(23).and_then(|f| f.trim().parse().ok()).unwrap_or(1);
        let levels = decode(fields.get(15).map_or("", String::as_str), ',').len().max(1);
        let value =
            if value.is_empty() { first } else { value.trim().parse().unwrap_or(first) };
        let level = (value - first + 1).clamp(1, i64::try_from(levels).unwrap_or(1));
        let saved: i64 = decode(&t.state, ';')
            .first()
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(-1);
        let state = if saved > 0 { level } else { -level };
        layer_name(t, inner, &state.to_string())
    }

    /// The value of a property the piece holds itself: a marker's or a dynamic
    /// property's, the outermost first.
    fn own_property(&self, key: &str) -> Option<String> {
        self.traits.iter().find_map(|t| {
            let first = || t.fields().into_iter().next();
            match t.id() {
                "PROP" if first().as_deref() == Some(key) => Some(t.state.clone()),
                "mark" if first().as_deref() == Some(key) => {
                    decode(&t.state, ',').into_iter().next()
                }
                _ => None,
            }
        })
    }

    /// The `BasicName` property: the outermost Basic Name trait's name, else the
    /// BasicPiece's.
    fn basic_name(&self) -> String {
        self.traits
            .iter()
            .find(|t| t.id() == "basicName")
            .and_then(|t| t.fields().into_iter().next())
            .or_else(|| self.name())
            .unwrap_or_default()
    }

    /// `Labeler.getName()`: the inner name when the label is empty (unless the format is
    /// always used), else the name format with `$pieceName$` and `$label$`.
    fn label_name(&self, t: &Trait, inner: String, gaps: &mut Vec<String>) -> String {
        let fields = t.fields();
        let label = self.fill_in(t.state.trim(), &inner, "", gaps);
        let always = fields.get(17).is_some_and(|f| f == "true");
        if label.is_empty() && !always {
            return inner;
        }
        let format = fields.get(11).map_or("$pieceName$ ($label$)", String::as_str);
        let format = format.replace("$PieceName$", "$pieceName$");
        self.fill_in(&format, &inner, &label, gaps)
    }

    /// A format's `$pieceName$`, `$label$` and `$property$` references replaced, the
    /// properties from the piece's markers and dynamic properties; a reference to
    /// another property, and an expression, is left as written and noted in `gaps`.
    fn fill_in(
        &self,
        format: &str,
        inner: &str,
        label: &str,
        gaps: &mut Vec<String>,
    ) -> String {
        if format.contains('{') {
            gaps.push(format.to_string());
        }
        if !format.contains('$') {
            return format.to_string();
        }
        let mut out = String::new();
        let mut parts = format.split('$');
        out.push_str(parts.next().unwrap_or_default());
        let rest: Vec<&str> = parts.collect();
        let mut k = 0;
        while k < rest.len() {
            // An unclosed `$` is kept as written.
            if k + 1 >= rest.len() {
                out.push('$');
                out.push_str(rest[k]);
                break;
            }
            let key = rest[k];
            let value = match key {
                "pieceName" => Some(inner.to_string()),
                "label" => Some(label.to_string()),
                "BasicName" => Some(self.basic_name()),
                _ => self.own_property(key),
            };
            match value {
                Some(v) => out.push_str(&v),
                None => {
                    gaps.push(format!("${key}$"));
                    out.push('$');
                    out.push_str(key);
                    out.push('$');
                }
            }
            out.push_str(rest[k + 1]);
            k += 2;
        }
        out
    }
}

/// `Obscurable.getName()` to a player who is not the one who masked the piece: the mask
/// name (`?` unless the trait gives one), else the inner name.
fn masked_name(t: &Trait, inner: String) -> String {
    let owner = decode(&t.state, ';').into_iter().next().unwrap_or_default();
    if owner == "null" || t.state.is_empty() {
        return inner;
    }
    let fields = t.fields();
    if fields.len() > 3 {
        fields.get(4).cloned().unwrap_or_else(|| "?".to_string())
    } else {
        "?".to_string()
    }
}

/// `Embellishment.getName()`: the level's name replaces the inner name, or is put before
/// it (`Name+`) or after it (`+Name`); an inactive layer (level not above 0) leaves it.
fn layer_name(t: &Trait, inner: &str, state: &str) -> String {
    let fields = t.fields();
    let images = decode(fields.get(15).map_or("", String::as_str), ',').len().max(1);
    let names = decode(fields.get(16).map_or("", String::as_str), ',');
    level_name(state, images, &names, inner)
}

/// The name given by a layer at the level its state holds, `names` its levels' names.
fn level_name(state: &str, levels: usize, names: &[String], inner: &str) -> String {
    let value: i64 =
        decode(state, ';').first().and_then(|v| v.trim().parse().ok()).unwrap_or(-1);
    let n = i64::try_from(levels).unwrap_or(i64::MAX);
    let value = value.clamp(-n, n);
    let Some(name) = usize::try_from(value - 1).ok().and_then(|k| names.get(k)) else {
        return inner.to_string();
    };
    if name.is_empty() {
        return inner.to_string();
    }
    let parts = decode(name, '+');
    match parts.as_slice() {
        [first, second, ..] if first.is_empty() => format!("{inner}{second}"),
        [first, _, ..] => format!("{first}{inner}"),
        _ => name.clone(),
    }
}

/// The name of a layer in the old encoding (`emb;`): its levels are `image,name` fields
/// after the eighth.
fn old_layer_name(t: &Trait, inner: &str) -> String {
    let fields = t.fields();
    let levels = fields.get(8..).unwrap_or_default();
    let names: Vec<String> = levels
        .iter()
        .map(|l| decode(l, ',').get(1).cloned().unwrap_or_default())
        .collect();
    level_name(&t.state, levels.len().max(1), &names, inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(traits: &[(&str, &str)]) -> Piece {
        Piece {
            traits: traits
                .iter()
                .map(|(k, s)| Trait { kind: (*k).to_string(), state: (*s).to_string() })
                .collect(),
        }
    }

    fn basic_trait() -> Trait {
        Trait { kind: "piece;;;a.png;Rifles".into(), state: "null;0;0;1;0".into() }
    }

    fn emb(names: &str) -> String {
        format!(
            "emb2;Activate;2;A;;2;;;2;;;;1;false;0;0;a.png,b.png;{names};true;Step;;;false;;1;1;true;;;;;1.0;;true"
        )
    }

    #[test]
    fn names_are_those_vassal_shows() {
        let basic = ("piece;;;a.png;Rifles", "null;0;0;1;0");
        assert_eq!(piece(&[basic]).shown_name(), "Rifles");
        // The outermost Basic Name wins over the BasicPiece's.
        let named = piece(&[("basicName;1st Rifles", ""), ("basicName;x", ""), basic]);
        assert_eq!(named.shown_name(), "1st Rifles");
        // Layers at level 2: a suffix, a prefix, a whole name; level 1 has no name.
        let e = emb(",+ (reduced)");
        assert_eq!(piece(&[(&e, "2"), basic]).shown_name(), "Rifles (reduced)");
        assert_eq!(piece(&[(&e, "1"), basic]).shown_name(), "Rifles");
        assert_eq!(piece(&[(&e, "-2"), basic]).shown_name(), "Rifles", "inactive");
        let e = emb(",Elite +");
        assert_eq!(piece(&[(&e, "2"), basic]).shown_name(), "Elite Rifles");
        let e = emb(",Routed");
        assert_eq!(piece(&[(&e, "2"), basic]).shown_name(), "Routed");
        assert_eq!(piece(&[(&e, "9"), basic]).shown_name(), "Routed", "clamped");
        // A label: the default format, a format of its own, an empty label.
        let label = |format: &str| {
            format!(
                "label;;Change;10;;0,0,0;t;0;c;0;b;c;{format};Dialog;0;0;TextLabel;;false"
            )
        };
        let l = label("$pieceName$ ($label$)");
        assert_eq!(piece(&[(&l, "3-4"), basic]).shown_name(), "Rifles (3-4)");
        assert_eq!(piece(&[(&l, ""), basic]).shown_name(), "Rifles");
        let l = label("$label$ $Side$");
        let side = ("mark;Side", "Red");
        assert_eq!(piece(&[(&l, "Hq"), side, basic]).shown_name(), "Hq Red");
        let turn = ("PROP;Turn;false,0,100,false;;", "4");
        let t = piece(&[(&label("$pieceName$ ($label$)"), "$Turn$"), turn, basic]);
        assert_eq!(t.shown_name(), "Rifles (4)");
        assert!(t.name_gaps().is_empty());
        // What muster does not evaluate is kept as written, and said.
        let odd = piece(&[(&l, "{x+1}"), basic]);
        assert_eq!(odd.shown_name(), "{x+1} $Side$");
        assert_eq!(odd.name_gaps(), ["{x+1}", "$Side$"]);
        // Outer traits decorate what inner ones give.
        let e = emb(",+ (reduced)");
        let l = label("$pieceName$ ($label$)");
        assert_eq!(
            piece(&[(&l, "2"), (&e, "2"), basic]).shown_name(),
            "Rifles (reduced) (2)"
        );
        // A layer that follows a property takes its level from it.
        let follow = "emb2;;2;;;2;;;2;;;;1;false;0;0;a.png,b.png,c.png;,+ (2),+ (3);true;Step;;;true;Steps;0";
        let steps = ("PROP;Steps;false,0,100,false;;", "2");
        assert_eq!(piece(&[(follow, "1"), steps, basic]).shown_name(), "Rifles (3)");
        let unknown = piece(&[(follow, "1"), basic]);
        assert_eq!(unknown.shown_name(), "Rifles");
        assert_eq!(unknown.name_gaps(), ["$Steps$"]);
        let unnamed = Piece {
            traits: vec![
                Trait::layer_following("Hits", "{Hits}", &["a.png", "b.png"]),
                basic_trait(),
            ],
        };
        assert_eq!(unnamed.shown_name(), "Rifles");
        assert!(unnamed.name_gaps().is_empty());
        // A piece masked or hidden by a player, as another player sees it.
        let mask = ("obs;M;back.png;Mask;G;Unknown unit", "player1;");
        assert_eq!(piece(&[mask, basic]).shown_name(), "Unknown unit");
        let unmasked = ("obs;M;back.png;Mask;G;Unknown unit", "null");
        assert_eq!(piece(&[unmasked, basic]).shown_name(), "Rifles");
        assert_eq!(piece(&[("obs;M;back.png", "p1"), basic]).shown_name(), "?");
        assert_eq!(piece(&[("hide;H;Hide", "p1"), basic]).shown_name(), "");
        assert_eq!(piece(&[("hide;H;Hide", "null"), basic]).shown_name(), "Rifles");
        let old = "emb;;;;;;;0;0;a.png,;b.png,+ flipped";
        assert_eq!(piece(&[(old, "2"), basic]).shown_name(), "Rifles flipped");
    }
}
