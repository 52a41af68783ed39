//! The `ferry` binary itself: configuration errors, `migrate`, `--help`, graceful shutdown.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn ferry() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ferry"));
    for (key, _) in std::env::vars().filter(|(k, _)| k.starts_with("FERRY_")) {
        command.env_remove(key);
    }
    command
}

#[test]
fn a_bad_setting_stops_start_up_with_one_line_naming_it() {
    let output = ferry()
        .env("FERRY_LISTEN", "nowhere:port")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("FERRY_LISTEN"), "{stderr}");
    assert!(stderr.contains("nowhere:port"), "{stderr}");
}

#[test]
fn a_bad_log_format_is_named_too() {
    let output = ferry().env("FERRY_LOG_FORMAT", "xml").output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("FERRY_LOG_FORMAT") && stderr.contains("xml"),
        "{stderr}"
    );
}

#[test]
fn every_subcommand_has_help() {
    for args in [
        vec!["--help"],
        vec!["serve", "--help"],
        vec!["migrate", "--help"],
    ] {
        let output = ferry().args(&args).output().unwrap();
        assert!(output.status.success(), "{args:?}");
        assert!(
            String::from_utf8_lossy(&output.stdout).contains("Usage"),
            "{args:?}"
        );
    }
}

#[test]
fn migrate_creates_the_sqlite_database_in_the_data_dir() {
    let dir = tempfile::tempdir().unwrap();
    let output = ferry()
        .arg("migrate")
        .env("FERRY_DATA_DIR", dir.path())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(dir.path().join("ferry.db").is_file());
}

#[cfg(unix)]
#[test]
fn sigterm_stops_the_server_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = ferry()
        .env("FERRY_DATA_DIR", dir.path())
        .env("FERRY_LISTEN", "127.0.0.1:0")
        .env("FERRY_LOG_FORMAT", "json")
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let listening = lines
        .by_ref()
        .map_while(Result::ok)
        .find(|line| line.contains("ferry is listening"))
        .expect("a listening line");
    assert!(listening.starts_with('{'), "JSON logs: {listening}");

    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let deadline = Instant::now() + Duration::from_secs(15);
    let exit = loop {
        if let Some(exit) = child.try_wait().unwrap() {
            break exit;
        }
        assert!(
            Instant::now() < deadline,
            "ferry did not stop after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(exit.success(), "{exit:?}");
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    assert!(rest.iter().any(|l| l.contains("\"stopped\"")), "{rest:?}");
}

#[test]
fn the_operator_switches_a_currency_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let output = ferry()
            .args(args)
            .env("FERRY_DATA_DIR", dir.path())
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    run(&["admin", "currency", "disable-send", "xmr"]);
    run(&["admin", "currency", "disable-recv", "XMR"]);
    let listed = run(&["admin", "currency", "list"]);
    assert!(
        listed.contains("XMR") && listed.contains("send off") && listed.contains("recv off"),
        "{listed}"
    );
    let unknown = ferry()
        .args(["admin", "currency", "disable-send", "NOPE"])
        .env("FERRY_DATA_DIR", dir.path())
        .output()
        .unwrap();
    assert!(!unknown.status.success());
}

#[test]
fn a_sandbox_deposit_for_an_unknown_order_fails_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let output = ferry()
        .args(["sandbox", "deposit", "NOSUCHORDER"])
        .env("FERRY_DATA_DIR", dir.path())
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("Order not found"));
}
