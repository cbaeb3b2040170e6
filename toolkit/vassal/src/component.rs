//! A module's buildFile as a tree of components, each named the way muster's reports name
//! it: its class's last word and, where it has one, its name in brackets.

use roxmltree::Node;

/// The last word of a component's class (`Map` for `VASSAL.build.module.Map`).
pub fn short(node: Node) -> String {
    let name = node.tag_name().name();
    name.rsplit_once('.').map_or(name, |(_, tail)| tail).to_string()
}

/// Whether `node` is an element whose class's last word is `word`.
pub fn is(node: Node, word: &str) -> bool {
    node.is_element() && short(node) == word
}

/// A component's own name, as the module's editor shows it.
pub fn label<'a>(node: Node<'a, '_>) -> Option<&'a str> {
    ["mapName", "name", "entryName", "chartName"]
        .iter()
        .find_map(|k| node.attribute(*k))
        .filter(|n| !n.is_empty())
}

/// The component's path from the module's root (`Map[Main Map]/BoardPicker/Board[Map]`).
pub fn path(node: Node) -> String {
    let mut parts: Vec<String> = node
        .ancestors()
        .filter(|n| n.is_element() && n.parent().is_some_and(|p| p.is_element()))
        .map(|n| match label(n) {
            Some(l) => format!("{}[{l}]", short(n)),
            None => short(n),
        })
        .collect();
    parts.reverse();
    parts.join("/")
}
