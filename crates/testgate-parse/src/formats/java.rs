//! How a Java test is named: `fully.qualified.Class#method`, as
//! Surefire's and Gradle's XML reports name it, from the spellings their
//! consoles print (`Class.method`, `method(Class)`, `Outer$Inner.m`,
//! `squares(int, int)[3]`, `squares{int, int}[3]`).

/// The class and method of a failed test's line, its class's result
/// having named `class`: `class.method` (3.x), `method(other.Class)`
/// (2.22, JUnit 4: the class it gives wins), `method` (2.22, the JUnit
/// Platform), `class` itself (a failure outside any test).
pub(crate) fn split_test(class: &str, name: &str) -> (String, Option<String>) {
    if name == class {
        return (class.to_owned(), None);
    }
    let nested = name
        .strip_prefix(class)
        .is_some_and(|rest| rest.starts_with(['.', '$']));
    if nested || of_enclosing(class, name) || junit4_class(name).is_some() {
        return split_whole(name);
    }
    (class.to_owned(), Some(name.to_owned()))
}

/// Whether `name` is a test of a class that encloses `class`: Surefire
/// 3.x runs an outer class's tests under its last `@Nested` class's result
/// (`Tests run: 5, … -- in com.example.CalcTest$BigTest`, then
/// `com.example.CalcTest.addsNegative`), its XML naming the outer class.
fn of_enclosing(class: &str, name: &str) -> bool {
    class.match_indices('$').any(|(at, _)| {
        let outer = class.get(..at).unwrap_or_default();
        name.strip_prefix(outer)
            .is_some_and(|rest| rest.len() > 1 && rest.starts_with('.'))
    })
}

/// JUnit 4's `method(com.example.Class)`, as Surefire 2.22 names a test:
/// the method and the class.
fn junit4_class(name: &str) -> Option<(&str, &str)> {
    let (method, class) = name.strip_suffix(')')?.rsplit_once('(')?;
    (is_class_name(class) && !method.is_empty()).then_some((method, class))
}

/// Whether `text` is a Java class's binary name (`com.example.Outer$Inner`).
pub(crate) fn is_class_name(text: &str) -> bool {
    !text.is_empty()
        && text.contains('.')
        && text
            .split('.')
            .all(|part| part.starts_with(|c: char| c.is_alphabetic() || c == '_' || c == '$'))
        && text
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '.' | '$' | '_'))
}

/// A class's simple name: `OuterTest$InnerTest` of `com.example.OuterTest$InnerTest`.
pub(crate) fn simple(class: &str) -> &str {
    class.rsplit_once('.').map_or(class, |(_, simple)| simple)
}

/// A method's name without its parameters: `squares` of `squares(int)[3]`.
pub(crate) fn bare(method: &str) -> &str {
    let end = method.find(['(', '[', '{']).unwrap_or(method.len());
    method.get(..end).unwrap_or(method)
}

/// A test named whole, its class and method: `com.example.ParamTest`
/// and `squares(int, int)[3]` of `com.example.ParamTest.squares(int,
/// int)[3]` (3.x), of `com.example.ParamTest.squares[2](com.example.
/// ParamTest)` `squares[2]` (2.22, JUnit 4); 3.x names a failure outside
/// any test `Class.null`: the class alone.
pub(crate) fn split_whole(whole: &str) -> (String, Option<String>) {
    if let Some((head, class)) = junit4_class(whole) {
        let method = head
            .strip_prefix(class)
            .and_then(|m| m.strip_prefix('.'))
            .unwrap_or(head);
        return (class.to_owned(), Some(method.to_owned()));
    }
    let end = whole.find(['(', '[', '{']).unwrap_or(whole.len());
    let at = whole.get(..end).and_then(|head| head.rfind('.'));
    match at {
        Some(at) => {
            let class = whole.get(..at).unwrap_or(whole).to_owned();
            let method = whole.get(at + 1..).unwrap_or_default();
            if method == "null" || method.is_empty() {
                (class, None)
            } else {
                (class, Some(method.to_owned()))
            }
        }
        None => (whole.to_owned(), None),
    }
}

/// The canonical name of a flake's heading.
pub(crate) fn whole_name(whole: &str) -> String {
    let (class, method) = split_whole(whole);
    match method {
        Some(method) => format!("{class}#{method}"),
        None => class,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_every_spelling_of_a_test() {
        let cases = [
            ("com.example.A", "com.example.A", ("com.example.A", None)),
            (
                "com.example.A",
                "com.example.A.m",
                ("com.example.A", Some("m")),
            ),
            (
                "com.example.A",
                "m(com.example.A)",
                ("com.example.A", Some("m")),
            ),
            (
                "com.example.A",
                "m[2](com.example.A)",
                ("com.example.A", Some("m[2]")),
            ),
            (
                "com.example.A",
                "m{String}[5]",
                ("com.example.A", Some("m{String}[5]")),
            ),
            (
                "com.example.A",
                "com.example.A.m(int, int)[3]",
                ("com.example.A", Some("m(int, int)[3]")),
            ),
            (
                "com.example.A",
                "com.example.A$B.m",
                ("com.example.A$B", Some("m")),
            ),
            (
                "com.example.A",
                "m(com.example.A$B)",
                ("com.example.A$B", Some("m")),
            ),
            // An outer class's test under its nested class's result.
            (
                "com.example.A$B",
                "com.example.A.m",
                ("com.example.A", Some("m")),
            ),
            (
                "com.example.A$B$C",
                "com.example.A$B.m",
                ("com.example.A$B", Some("m")),
            ),
            // Where it must not fire: a class that only shares the outer
            // class's prefix, a method of the nested class's own name.
            (
                "com.example.A$B",
                "com.example.AB.m",
                ("com.example.A$B", Some("com.example.AB.m")),
            ),
            ("com.example.A$B", "m", ("com.example.A$B", Some("m"))),
        ];
        for (class, name, (want_class, want_method)) in cases {
            let (got_class, got_method) = split_test(class, name);
            assert_eq!(
                (got_class.as_str(), got_method.as_deref()),
                (want_class, want_method),
                "{name}"
            );
        }
        assert_eq!(
            split_whole("com.example.SetupTest.null"),
            ("com.example.SetupTest".to_owned(), None)
        );
        assert_eq!(
            split_whole("com.example.A.m(com.example.A)"),
            ("com.example.A".to_owned(), Some("m".to_owned()))
        );
    }
}
