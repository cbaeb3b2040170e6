//! VASSAL piece definitions (`+/id/TYPE/STATE`) decoded from arbitrary text; a decoded
//! piece that VASSAL's encoding can carry re-encodes and decodes to the same piece.
#![no_main]

use libfuzzer_sys::fuzz_target;
use muster_vassal::vassal::piece::decode_add;

fuzz_target!(|text: &str| {
    if let Ok(added) = decode_add(text)
        && let Some(piece) = added.piece
    {
        let encoded = piece.add_command(&added.id);
        let again = decode_add(&encoded);
        if piece.encodable() && !added.id.ends_with('\\') && !added.id.contains('/') {
            assert_eq!(again.expect("re-encoded piece decodes").piece, Some(piece));
        }
    }
});
