//! Secrets testgate holds while the tests run, looked for from inside:
//! tokens in the URLs of its environment, the key it signs records with,
//! other projects' private caches.

use std::fs;

use super::harness::{Attack, contains};

/// Runs the `held-secrets` suite on `attack` (its files to read given as
/// script arguments), asserts a pass, and returns what the suite read.
fn dump_of(attack: &Attack) -> Vec<u8> {
    let outcome = attack.run();
    outcome.assert_verdict("pass", None, 0);
    let dump = fs::read(attack.project().join("dump.bin")).expect("the suite's dump");
    assert!(contains(&dump, "== env"), "the dump is empty");
    for (what, bytes) in [
        ("dump", &dump),
        ("stdout", &outcome.stdout),
        ("stderr", &outcome.stderr),
    ] {
        assert!(
            !contains(bytes, "exfil"),
            "a planted value reached {what}: {}",
            String::from_utf8_lossy(bytes)
        );
    }
    attack.assert_contained(&outcome);
    dump
}

/// Index and registry URLs with a token in the path or the query, in the
/// variables pip, npm, cargo and go read: held back, while the same
/// variables with plain URLs are passed.
#[test]
fn tokens_in_index_and_registry_urls_are_held_back() {
    let token = "exfilAb3De9Gh1Jk5Mn7";
    let held = [
        (
            "PIP_EXTRA_INDEX_URL",
            format!("https://pypi.example/{token}/simple"),
        ),
        (
            "NPM_CONFIG_REGISTRY",
            "https://registry.example/?token=exfil-npm".to_owned(),
        ),
        (
            "CARGO_REGISTRIES_MINE_INDEX",
            format!("sparse+https://crates.example/{token}/index/"),
        ),
        (
            "GOPROXY",
            "https://proxy.golang.org,https://goproxy.example/?key=exfil-go|direct".to_owned(),
        ),
    ];
    let mut attack = Attack::new("held-secrets")
        .keeping_changes()
        .testgate_env("PIP_INDEX_URL", "https://pypi.org/simple")
        .testgate_env("npm_config_registry", "https://registry.npmjs.org/");
    for (name, value) in &held {
        attack = attack.testgate_env(*name, value);
    }
    let dump = dump_of(&attack);
    for (name, _) in &held {
        assert!(
            !contains(&dump, format!("{name}=")),
            "{name} reached the sandbox"
        );
    }
    // The plain ones are passed: the filter is not simply dropping them all.
    assert!(contains(&dump, "PIP_INDEX_URL=https://pypi.org/simple"));
    assert!(contains(
        &dump,
        "npm_config_registry=https://registry.npmjs.org/"
    ));
}

/// The key `--sign` signs with, outside every home (as `/etc/testgate/key`
/// would be): unreadable inside, and the record still signed with it.
#[test]
fn the_signing_key_is_unreadable_inside_wherever_it_lies() {
    let attack = Attack::new("held-secrets").keeping_changes();
    let key = attack.outside().join("testgate-key");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_testgate"))
        .arg("keygen")
        .arg(&key)
        .output()
        .expect("keygen");
    assert!(out.status.success(), "{out:?}");
    let secret = fs::read_to_string(&key).expect("the key");
    let records = tempfile::tempdir().expect("tempdir");
    let record = records.path().join("record.json");
    let attack = attack
        .arg("--record")
        .arg(&record)
        .arg("--sign")
        .arg(&key)
        .script_arg(&key);
    let dump = dump_of(&attack);
    assert!(contains(&dump, format!("== {}", key.display())));
    assert!(
        !contains(&dump, secret.trim()),
        "the signing key was read inside"
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_testgate"))
        .arg("verify")
        .arg(&record)
        .arg("--key")
        .arg(key.with_extension("pub"))
        .output()
        .expect("verify");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

/// testgate's private caches under an `XDG_CACHE_HOME` outside the homes:
/// another project's cache is not there inside.
#[test]
fn other_projects_private_caches_are_hidden_outside_the_homes() {
    let attack = Attack::new("held-secrets").keeping_changes();
    let xdg = attack.outside().join("xdg");
    // A name with `~` is never pruned as a gone project's.
    let other = xdg.join("testgate/sandbox/other-project~kept/home-cache");
    fs::create_dir_all(&other).expect("mkdir");
    let planted = other.join("token");
    fs::write(&planted, "exfil-of-another-project\n").expect("plant");
    let attack = attack
        .testgate_env("XDG_CACHE_HOME", &xdg)
        .script_arg(&planted);
    let dump = dump_of(&attack);
    assert!(contains(&dump, format!("== {}", planted.display())));
    assert_eq!(
        fs::read_to_string(&planted).expect("still there"),
        "exfil-of-another-project\n"
    );
}
