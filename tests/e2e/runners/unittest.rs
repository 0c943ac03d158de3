//! unittest's own e2e tests, beyond those every runner shares (`main.rs`).

use testgate::parse::Runner;

use crate::projects::Project;
use crate::{Where, assert_fail, check};

/// unittest: a test module that fails to import is a failure named by the
/// module's dotted name, as unittest's header names it, in both sandboxes.
#[test]
fn a_unittest_module_that_fails_to_import_is_named() {
    for place in [Where::Bwrap, Where::Landlock] {
        let project = Project::copy(Runner::Unittest);
        let record = check(&project, "import", 1, place);
        assert_fail(
            &record,
            &["tests.test_imports"],
            &format!("unittest, a module that fails to import, in {place:?}"),
        );
    }
}
