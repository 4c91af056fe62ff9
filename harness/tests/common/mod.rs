//! The one helper every browser test uses: serves `fixtures/` on 127.0.0.1 (twice: the
//! second server is the "other origin" that `__XORIGIN_PORT__` in served pages points to),
//! launches Chromium with a fresh profile through the harness, and closes it at the end.
//! A test that panics still kills its Chromium: the harness's browser handle kills the
//! process when dropped.

#![allow(dead_code)]

pub mod cli;
pub mod mcp;

use prufe::core::model::{Role, Snapshot};
use prufe::core::resolve::Target;
use prufe_harness::serve::StaticServer;
use prufe_harness::{Options, Verifier};
use std::path::PathBuf;

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

pub fn fixtures() -> PathBuf {
    repo().join("fixtures")
}

/// Fails (does not skip) when the engine bundle has not been built.
pub fn require_bundle() {
    let bundle = std::env::var_os("PRUFE_BUNDLE")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("js/dist/prufe.js"));
    assert!(
        bundle.is_file(),
        "the engine bundle {} is missing: run `make bundle` first",
        bundle.display()
    );
}

/// The fixture servers: `main` substitutes `__XORIGIN_PORT__` with `xorigin`'s port.
pub struct Servers {
    pub main: StaticServer,
    pub xorigin: StaticServer,
}

impl Servers {
    pub async fn start() -> Servers {
        let xorigin = StaticServer::start(fixtures(), Vec::new())
            .await
            .expect("second fixture server");
        let main = StaticServer::start(
            fixtures(),
            vec![("__XORIGIN_PORT__".into(), xorigin.port().to_string())],
        )
        .await
        .expect("fixture server");
        Servers { main, xorigin }
    }

    pub fn url(&self, page: &str) -> String {
        self.main.url(page)
    }
}

/// A verifier on a freshly launched Chromium, with the fixture servers.
pub struct Session {
    pub v: Verifier,
    pub servers: Servers,
}

impl Session {
    pub async fn start(opts: Options) -> Session {
        require_bundle();
        let servers = Servers::start().await;
        let v = Verifier::launch(opts).await.expect("Chromium launches");
        Session { v, servers }
    }

    /// A session on `page` with default options.
    pub async fn open(page: &str) -> Session {
        Self::open_with(page, Options::default()).await
    }

    pub async fn open_with(page: &str, opts: Options) -> Session {
        let mut s = Self::start(opts).await;
        let url = s.servers.url(page);
        s.v.open(&url)
            .await
            .unwrap_or_else(|e| panic!("opening {url}: {e}"));
        s
    }

    pub fn url(&self, page: &str) -> String {
        self.servers.url(page)
    }

    pub async fn snapshot(&mut self) -> Snapshot {
        self.v.snapshot().await.expect("snapshot")
    }

    /// The labels of the cart's lines.
    pub async fn cart(&mut self) -> Vec<String> {
        cart_lines(&self.snapshot().await)
    }

    pub async fn close(self) {
        self.v.close().await.expect("the browser closes");
    }
}

pub fn cart_lines(s: &Snapshot) -> Vec<String> {
    s.elements
        .iter()
        .filter(|e| e.role == Role::Listitem && e.region.starts_with("cart"))
        .map(|e| e.label().to_owned())
        .collect()
}

pub fn texts(s: &Snapshot) -> Vec<String> {
    s.texts.iter().map(|t| t.text.clone()).collect()
}

pub fn target(role: &str, name: &str) -> Target {
    Target::new(role, name)
}

pub fn target_in(role: &str, name: &str, region: &str) -> Target {
    Target {
        region: Some(region.to_owned()),
        ..Target::new(role, name)
    }
}

/// The card frame said the payment went through, and the card number is nowhere in `snap`.
pub fn assert_paid_in_frame(snap: &Snapshot, card: &str) {
    assert_paid(snap);
    assert!(!serde_json::to_string(snap).unwrap().contains(card));
}

/// The frame at path 0 says the payment was accepted.
pub fn assert_paid(snap: &Snapshot) {
    assert!(
        snap.texts
            .iter()
            .any(|t| t.text == "Payment accepted" && t.region.starts_with("frame[0]")),
        "{:?}",
        snap.texts
    );
}
