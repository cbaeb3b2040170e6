//! The shape of the code, as the shared code-shape tool reads it
//! (`../shared/tools/code-shape/code_shape.py`, beside the repository): no function over
//! 150 lines, and no modules of one crate that import each other in a circle.
//!
//! Without the tool, or a `python3` to run it, the test returns early and says why;
//! `.ci/run` sets `MUSTER_REQUIRE_CODE_SHAPE`, which turns that into a failure.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

use crate::util::root;

/// The tool, or `None` (with a note) when it is absent and not required.
fn tool() -> Option<PathBuf> {
    let tool = root().join("../shared/tools/code-shape/code_shape.py");
    if tool.is_file() {
        return Some(tool);
    }
    assert!(
        std::env::var_os("MUSTER_REQUIRE_CODE_SHAPE").is_none(),
        "MUSTER_REQUIRE_CODE_SHAPE is set but there is no {}",
        tool.display()
    );
    eprintln!(
        "no code-shape tool at {}: CI has ../shared beside the checkout",
        tool.display()
    );
    None
}

#[test]
fn no_function_is_over_150_lines_and_no_modules_import_each_other_in_a_circle() {
    let Some(tool) = tool() else { return };
    let output = match Command::new("python3").arg(&tool).arg(root()).output() {
        Ok(output) => output,
        Err(e) => {
            assert!(
                std::env::var_os("MUSTER_REQUIRE_CODE_SHAPE").is_none(),
                "MUSTER_REQUIRE_CODE_SHAPE is set but python3 does not run ({e})"
            );
            eprintln!("no python3 to run {} ({e})", tool.display());
            return;
        }
    };
    assert!(
        output.status.success(),
        "{} failed: {}",
        tool.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    let shape: Value =
        serde_json::from_slice(&output.stdout).expect("the tool prints JSON");
    let mut problems = Vec::new();
    for f in shape["long_fns"].as_array().expect("long_fns is a list") {
        problems.push(format!(
            "{}: fn {} is {} lines long, over 150",
            f[0].as_str().unwrap_or_default(),
            f[1].as_str().unwrap_or_default(),
            f[2]
        ));
    }
    for (krate, groups) in shape["cycles"].as_object().expect("cycles is an object") {
        for group in groups.as_array().into_iter().flatten() {
            let modules: Vec<&str> = group
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            problems.push(format!(
                "toolkit/{krate}: modules {} import each other in a circle",
                modules.join(", ")
            ));
        }
    }
    assert!(problems.is_empty(), "the code's shape:\n  {}", problems.join("\n  "));
}
