//! `check --expect FILE`: the tests a change is graded against, in JSON.

use std::fmt;

use serde::de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

/// An `--expect` file in JSON (a file of plain lines, one must-pass name
/// each, is not JSON and not read through this type): testgate's own
/// `{"must_pass": [...], "keep_passing": [...]}`, or a benchmark's whole
/// instance record, SWE-bench's (`FAIL_TO_PASS`, `PASS_TO_PASS`) or
/// Multi-SWE-bench's (`f2p_tests`, `s2p_tests`, `n2p_tests`, `p2p_tests`),
/// whose other keys are kept by name in [`ExpectFile::other`]. A list that
/// is not one is an error that names its key.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ExpectFile {
    /// Tests that must pass after the change.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub must_pass: Option<TestList>,
    /// Tests that must keep passing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keep_passing: Option<TestList>,
    /// SWE-bench's must-pass list.
    #[serde(rename = "FAIL_TO_PASS", skip_serializing_if = "Option::is_none")]
    pub fail_to_pass: Option<TestList>,
    /// SWE-bench's keep-passing list.
    #[serde(rename = "PASS_TO_PASS", skip_serializing_if = "Option::is_none")]
    pub pass_to_pass: Option<TestList>,
    /// Multi-SWE-bench's failing-then-passing tests (must pass).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub f2p_tests: Option<TestList>,
    /// Multi-SWE-bench's skipped-then-passing tests (must pass).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub s2p_tests: Option<TestList>,
    /// Multi-SWE-bench's new passing tests (must pass).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n2p_tests: Option<TestList>,
    /// Multi-SWE-bench's keep-passing list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p2p_tests: Option<TestList>,
    /// An instance record's `instance_id`, where it is a string.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instance_id: Option<String>,
    /// An instance record's `base_commit` (SWE-bench) or `base.sha`
    /// (Multi-SWE-bench): the revision whose test files are trusted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_commit: Option<String>,
    /// An instance record's `test_patch`: applied to the trusted test
    /// files, as SWE-bench's harness does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub test_patch: Option<String>,
    /// An instance record's `patch` (SWE-bench's reference solution, or
    /// Multi-SWE-bench's `fix_patch`), applied with `--apply record`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub patch: Option<String>,
    /// A prediction's `model_patch`, applied with `--apply record` in
    /// preference to `patch`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_patch: Option<String>,
    /// Every key that holds no list, sorted (`instance_id` among them):
    /// an instance record's own business, or a typo in testgate's form.
    #[serde(skip)]
    pub other: Vec<String>,
}

impl ExpectFile {
    /// The keys whose tests must pass after the change.
    pub const MUST_PASS: [&'static str; 5] = [
        "must_pass",
        "FAIL_TO_PASS",
        "f2p_tests",
        "s2p_tests",
        "n2p_tests",
    ];
    /// The keys whose tests must keep passing.
    pub const KEEP_PASSING: [&'static str; 3] = ["keep_passing", "PASS_TO_PASS", "p2p_tests"];

    /// The list under `key` (one of [`Self::MUST_PASS`] or
    /// [`Self::KEEP_PASSING`]), if the file has it.
    pub fn list(&self, key: &str) -> Option<&TestList> {
        match key {
            "must_pass" => self.must_pass.as_ref(),
            "keep_passing" => self.keep_passing.as_ref(),
            "FAIL_TO_PASS" => self.fail_to_pass.as_ref(),
            "PASS_TO_PASS" => self.pass_to_pass.as_ref(),
            "f2p_tests" => self.f2p_tests.as_ref(),
            "s2p_tests" => self.s2p_tests.as_ref(),
            "n2p_tests" => self.n2p_tests.as_ref(),
            "p2p_tests" => self.p2p_tests.as_ref(),
            _ => None,
        }
    }

    /// Whether a benchmark's list is among the keys: the file is an
    /// instance record, whose other keys are no typo.
    pub fn is_instance_record(&self) -> bool {
        [
            &self.fail_to_pass,
            &self.pass_to_pass,
            &self.f2p_tests,
            &self.p2p_tests,
            &self.s2p_tests,
            &self.n2p_tests,
        ]
        .iter()
        .any(|list| list.is_some())
    }

    /// Where an instance record's text field `key` is kept.
    fn text_slot(&mut self, key: &str) -> Option<&mut Option<String>> {
        Some(match key {
            "base_commit" => &mut self.base_commit,
            "test_patch" => &mut self.test_patch,
            "patch" | "fix_patch" => &mut self.patch,
            "model_patch" => &mut self.model_patch,
            _ => return None,
        })
    }

    fn slot(&mut self, key: &str) -> Option<&mut Option<TestList>> {
        Some(match key {
            "must_pass" => &mut self.must_pass,
            "keep_passing" => &mut self.keep_passing,
            "FAIL_TO_PASS" => &mut self.fail_to_pass,
            "PASS_TO_PASS" => &mut self.pass_to_pass,
            "f2p_tests" => &mut self.f2p_tests,
            "s2p_tests" => &mut self.s2p_tests,
            "n2p_tests" => &mut self.n2p_tests,
            "p2p_tests" => &mut self.p2p_tests,
            _ => return None,
        })
    }
}

impl<'de> Deserialize<'de> for ExpectFile {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct File;
        impl<'de> Visitor<'de> for File {
            type Value = ExpectFile;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of test lists")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ExpectFile, A::Error> {
                let mut file = ExpectFile::default();
                while let Some(key) = map.next_key::<String>()? {
                    if let Some(slot) = file.slot(&key) {
                        // Read whole first: what is not JSON stays that
                        // error; what is no list is said so by its key.
                        let value = map.next_value::<serde_json::Value>()?;
                        let list = TestList::deserialize(value).map_err(|_| {
                            de::Error::custom(format!("`{key}` is not a list of test names"))
                        })?;
                        *slot = Some(list);
                    } else if key == "instance_id" {
                        file.instance_id = map.next_value::<MaybeText>()?.0;
                        file.other.push(key);
                    } else if let Some(slot) = file.text_slot(&key) {
                        *slot = map.next_value::<MaybeText>()?.0;
                        file.other.push(key);
                    } else if key == "base" {
                        // Multi-SWE-bench: `"base": {"sha": …}`.
                        let value = map.next_value::<serde_json::Value>()?;
                        if let Some(sha) = value.get("sha").and_then(|sha| sha.as_str()) {
                            file.base_commit = Some(sha.to_owned());
                        }
                        file.other.push(key);
                    } else {
                        map.next_value::<IgnoredAny>()?;
                        file.other.push(key);
                    }
                }
                file.other.sort();
                Ok(file)
            }
        }
        deserializer.deserialize_map(File)
    }
}

/// A value kept where it is a string, skipped otherwise.
struct MaybeText(Option<String>);

impl<'de> Deserialize<'de> for MaybeText {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(match serde_json::Value::deserialize(deserializer)? {
            serde_json::Value::String(text) => MaybeText(Some(text)),
            serde_json::Value::Null
            | serde_json::Value::Bool(_)
            | serde_json::Value::Number(_)
            | serde_json::Value::Array(_)
            | serde_json::Value::Object(_) => MaybeText(None),
        })
    }
}

/// The tests of one list: written as a list, a string holding one in JSON
/// (as SWE-bench stores them), or an object keyed by test name (as
/// Multi-SWE-bench stores them, each value the benchmark's own runs, not
/// read). An entry of a list is a test's name, or an object
/// `{"name": …, "file": …}` naming the file it lies in (a test's identity
/// is its name and, where the runner gives one, its file: docs/formats.md).
/// No name or file is empty.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct TestList(pub Vec<ListedName>);

/// One entry of a [`TestList`]: a test's name, and the file where the
/// list gives one. Written as the name alone, or as
/// `{"name": …, "file": …}`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ListedName {
    /// The test's name, as the runner names it.
    pub name: String,
    /// The file it lies in, where the list gives one.
    pub file: Option<String>,
}

impl ListedName {
    /// A name alone: every test of that name, in whatever file.
    pub fn new(name: impl Into<String>) -> Self {
        ListedName {
            name: name.into(),
            file: None,
        }
    }
}

impl fmt::Debug for ListedName {
    // A name alone reads as the string it was written as.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.file {
            None => fmt::Debug::fmt(&self.name, f),
            Some(file) => f
                .debug_struct("ListedName")
                .field("name", &self.name)
                .field("file", file)
                .finish(),
        }
    }
}

impl PartialEq<&str> for ListedName {
    /// An entry is a name alone equal to `other`.
    fn eq(&self, other: &&str) -> bool {
        self.file.is_none() && self.name == *other
    }
}

impl Serialize for ListedName {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        match &self.file {
            None => serializer.serialize_str(&self.name),
            Some(file) => {
                let mut object = serializer.serialize_struct("ListedName", 2)?;
                object.serialize_field("name", &self.name)?;
                object.serialize_field("file", file)?;
                object.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for ListedName {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Written {
            Name(String),
            Placed {
                name: String,
                #[serde(default)]
                file: Option<String>,
            },
        }
        Ok(match Written::deserialize(deserializer)? {
            Written::Name(name) => ListedName { name, file: None },
            Written::Placed { name, file } => ListedName { name, file },
        })
    }
}

impl<'de> Deserialize<'de> for TestList {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct List;
        impl<'de> Visitor<'de> for List {
            type Value = TestList;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of test names")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<TestList, A::Error> {
                let mut names = Vec::new();
                while let Some(name) = seq.next_element::<ListedName>()? {
                    names.push(name);
                }
                TestList::named(names)
            }
            fn visit_str<E: de::Error>(self, encoded: &str) -> Result<TestList, E> {
                let names: Vec<ListedName> = serde_json::from_str(encoded).map_err(E::custom)?;
                TestList::named(names)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TestList, A::Error> {
                let mut names = Vec::new();
                while let Some((name, IgnoredAny)) = map.next_entry::<String, IgnoredAny>()? {
                    names.push(ListedName::new(name));
                }
                // Keyed by name: sorted, as a JSON object's keys are read.
                names.sort_by(|a, b| a.name.cmp(&b.name));
                TestList::named(names)
            }
        }
        deserializer.deserialize_any(List)
    }
}

impl TestList {
    fn named<E: de::Error>(names: Vec<ListedName>) -> Result<TestList, E> {
        let empty = |t: &ListedName| t.name.is_empty() || t.file.as_deref() == Some("");
        if names.iter().any(empty) {
            return Err(E::custom("an empty test name"));
        }
        Ok(TestList(names))
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for TestList {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "TestList".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "Tests: a list, a string holding a JSON list (SWE-bench), or an object keyed by name (Multi-SWE-bench). An entry of a list is a test's name (every test of that name, in whatever file), or {\"name\", \"file\"} (the test of that name in that file).",
            "anyOf": [
                {"type": "array", "items": {"anyOf": [
                    {"type": "string", "minLength": 1},
                    {
                        "type": "object",
                        "properties": {
                            "name": {"type": "string", "minLength": 1},
                            "file": {"type": "string", "minLength": 1}
                        },
                        "required": ["name"]
                    }
                ]}},
                {"type": "string"},
                {"type": "object"}
            ]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{ExpectFile, ListedName, TestList};

    fn read(text: &str) -> Result<ExpectFile, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    #[test]
    fn a_list_is_read_in_each_of_its_three_forms() {
        let file = read(
            r#"{"must_pass": ["a"], "FAIL_TO_PASS": "[\"b\"]", "f2p_tests": {"d": {}, "c": {}},
                "instance_id": "x-1", "repo": "x"}"#,
        )
        .unwrap();
        assert_eq!(file.must_pass, Some(TestList(vec![ListedName::new("a")])));
        assert_eq!(
            file.list("FAIL_TO_PASS"),
            Some(&TestList(vec![ListedName::new("b")]))
        );
        assert_eq!(
            file.list("f2p_tests"),
            Some(&TestList(vec![ListedName::new("c"), ListedName::new("d")]))
        );
        assert_eq!(file.instance_id.as_deref(), Some("x-1"));
        assert_eq!(file.other, ["instance_id", "repo"]);
        assert!(file.is_instance_record());
    }

    /// An entry that names its file, in a list or in SWE-bench's string;
    /// written back as it was read.
    #[test]
    fn an_entry_may_name_its_file() {
        let file = read(
            r#"{"must_pass": ["a", {"name": "m › adds", "file": "b.test.js"}],
                "PASS_TO_PASS": "[{\"name\": \"k\"}]"}"#,
        )
        .unwrap();
        let placed = ListedName {
            name: "m › adds".into(),
            file: Some("b.test.js".into()),
        };
        assert_eq!(
            file.must_pass,
            Some(TestList(vec![ListedName::new("a"), placed]))
        );
        assert_eq!(
            file.list("PASS_TO_PASS"),
            Some(&TestList(vec![ListedName::new("k")]))
        );
        assert_eq!(
            serde_json::to_string(&file.must_pass).unwrap(),
            r#"["a",{"name":"m › adds","file":"b.test.js"}]"#
        );
        for bad in [
            r#"{"must_pass": [{"file": "b.test.js"}]}"#,
            r#"{"must_pass": [{"name": "a", "file": ""}]}"#,
            r#"{"must_pass": [{"name": ""}]}"#,
        ] {
            let why = read(bad).unwrap_err();
            assert!(
                why.starts_with("`must_pass` is not a list of test names"),
                "{bad}: {why}"
            );
        }
    }

    #[test]
    fn a_list_that_is_none_is_named_and_what_is_not_json_stays_so() {
        for (text, wanted) in [
            (
                r#"{"keep_passing": [1]}"#,
                "`keep_passing` is not a list of test names",
            ),
            (
                r#"{"PASS_TO_PASS": "[\"\"]"}"#,
                "`PASS_TO_PASS` is not a list",
            ),
            (r#"{"p2p_tests": 3}"#, "`p2p_tests` is not a list"),
            (r#"{"must_pass": ["#, "EOF while parsing"),
            ("[]", "invalid type: sequence"),
        ] {
            let why = read(text).unwrap_err();
            assert!(why.starts_with(wanted), "{text}: {why}");
        }
        // Not a list: an instance id that is no string is kept by name only.
        let file = read(r#"{"must_pass": ["a"], "instance_id": 3}"#).unwrap();
        assert_eq!(file.instance_id, None);
        assert_eq!(file.other, ["instance_id"]);
    }
}
