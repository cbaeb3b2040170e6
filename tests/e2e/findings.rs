//! One severity model: every finding kind has one severity, and the README's table of
//! kinds states exactly what the code does.

use muster_model::FindingKind;

use crate::util::root;

/// The README's table of finding kinds, as the code has it.
fn table() -> String {
    let mut s = String::from("| kind | severity | what |\n| --- | --- | --- |\n");
    for k in FindingKind::ALL {
        s.push_str(&format!("| `{k}` | {} | {} |\n", k.severity(), k.describe()));
    }
    s
}

#[test]
fn the_readme_lists_every_finding_kind_with_its_severity() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let want = table();
    assert!(readme.contains(&want), "README.md must hold this table:\n{want}");
}
