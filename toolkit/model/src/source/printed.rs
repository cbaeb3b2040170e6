//! A printed value: text, or a bare number that YAML would otherwise read as one.

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, de};

/// A value as printed on a counter or in a table (`4`, `x`, `½`, `(3)`), kept as text.
///
/// YAML numbers are accepted and kept in their decimal form; quote values with leading
/// zeros so they stay as printed.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, JsonSchema)]
#[schemars(transparent)]
pub struct Printed(#[schemars(with = "PrintedSchema")] pub String);

#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum PrintedSchema {
    Text(String),
    Number(f64),
}

impl<'de> Deserialize<'de> for Printed {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl de::Visitor<'_> for V {
            type Value = Printed;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a printed value (text or a number)")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Printed, E> {
                Ok(Printed(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Printed, E> {
                Ok(Printed(v.to_string()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Printed, E> {
                Ok(Printed(v.to_string()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Printed, E> {
                Ok(Printed(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

impl std::fmt::Display for Printed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
