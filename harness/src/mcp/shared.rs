//! Over HTTP: one browser for the whole server, and one browser context per MCP session.
//!
//! A browser context is Chromium's incognito-like partition: its own cookies, storage, cache
//! and tabs, in the same browser process (`Target.createBrowserContext`). Each session's
//! worker opens its tab in a context of its own ([`SharedBrowser::open`]), so two clients
//! never see each other's pages, logins or storage, and the cost of a session is a renderer
//! and a tab rather than a whole browser. Closing a [`Context`] disposes of it, which closes
//! its tabs.
//!
//! The browser is launched on the first session that needs it (or attached with
//! `--connect`, where the contexts are created in the attached browser and disposed of when
//! this connection goes away, if prufe could not do it first), and launched again by the
//! next session that finds it gone (it crashed, or was closed from outside). The launch is
//! one at a time; everything after it (a context, its tab, the engine) runs in parallel for
//! every session.

use crate::cdp::{Browser, Connection};
use crate::error::{Error, Result};
use crate::verify::{Options, Verifier};
use serde_json::json;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// How long disposing of a context may take.
const DISPOSE_TIMEOUT: Duration = Duration::from_secs(5);

/// The browser every session of the HTTP server opens its context in.
pub struct SharedBrowser {
    options: Options,
    /// One launch at a time.
    launching: tokio::sync::Mutex<()>,
    /// The browser, once launched; never held across an await.
    browser: Mutex<Option<Browser>>,
    /// The server is stopping: a browser launched now is closed at once.
    stopping: AtomicBool,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl SharedBrowser {
    /// Launches nothing yet: the first [`SharedBrowser::open`] does, with `options`' browser
    /// settings (`chromium`, `headless`, `connect`).
    pub fn new(options: Options) -> SharedBrowser {
        SharedBrowser {
            options,
            launching: tokio::sync::Mutex::new(()),
            browser: Mutex::new(None),
            stopping: AtomicBool::new(false),
        }
    }

    /// The connection of the running browser, launching (or attaching to) it when there is
    /// none or it went away.
    async fn connection(&self) -> Result<Connection> {
        let _one = self.launching.lock().await;
        let gone = {
            let mut slot = lock(&self.browser);
            if let Some(b) = slot.as_ref().filter(|b| !*b.closed().borrow()) {
                return Ok(b.connection().clone());
            }
            slot.take()
        };
        if let Some(b) = gone {
            let _ = b.close().await;
        }
        if self.stopping.load(Ordering::Acquire) {
            return Err(stopping());
        }
        let browser = match &self.options.connect {
            Some(url) => Browser::connect(url).await?,
            None => {
                Browser::launch(self.options.chromium.as_deref(), self.options.headless).await?
            }
        };
        if self.stopping.load(Ordering::Acquire) {
            let _ = browser.close().await;
            return Err(stopping());
        }
        let conn = browser.connection().clone();
        *lock(&self.browser) = Some(browser);
        Ok(conn)
    }

    /// A new browser context with one tab, and a verifier on that tab (with `options`: the
    /// session's own trace directory, timing, …).
    pub async fn open(&self, options: Options) -> Result<(Verifier, Context)> {
        let conn = self.connection().await?;
        let created = conn
            .execute(
                "Target.createBrowserContext",
                json!({ "disposeOnDetach": true }),
            )
            .await
            .map_err(|e| Error::Launch(format!("cannot create a browser context: {e}")))?;
        let Some(id) = created["browserContextId"].as_str().map(str::to_owned) else {
            return Err(Error::Launch(
                "the browser's reply to Target.createBrowserContext has no browserContextId".into(),
            ));
        };
        let context = Context {
            conn: conn.clone(),
            id,
        };
        match Self::tab(&conn, &context.id, options).await {
            Ok(v) => Ok((v, context)),
            Err(e) => {
                context.close().await;
                Err(e)
            }
        }
    }

    async fn tab(conn: &Connection, context: &str, options: Options) -> Result<Verifier> {
        let created = conn
            .execute(
                "Target.createTarget",
                json!({ "url": "about:blank", "browserContextId": context }),
            )
            .await?;
        let Some(target) = created["targetId"].as_str() else {
            return Err(Error::Launch(
                "the browser's reply to Target.createTarget has no targetId".into(),
            ));
        };
        let page = conn.attach(target).await?;
        // Tabs of other contexts share the browser's one focused window: each tab behaves as
        // if it had the focus, as the only tab of a browser does.
        page.execute(
            "Emulation.setFocusEmulationEnabled",
            json!({ "enabled": true }),
        )
        .await?;
        let v = Verifier::attach(page, options).await?;
        v.watch_browser(conn).await?;
        Ok(v)
    }

    /// Closes the browser (a launched one exits; an attached one only loses this connection,
    /// which disposes of the contexts created through it). A session opened afterwards is
    /// refused.
    pub async fn close(&self) {
        self.stopping.store(true, Ordering::Release);
        let browser = lock(&self.browser).take();
        if let Some(b) = browser {
            let _ = b.close().await;
        }
    }

    /// [`SharedBrowser::close`] for a server that is being dropped (a signal stopped it):
    /// a launched browser is killed, reaped and its profile removed, without waiting on it.
    pub fn close_now(&self) {
        self.stopping.store(true, Ordering::Release);
        drop(lock(&self.browser).take());
    }
}

fn stopping() -> Error {
    Error::Launch("the server is shutting down".into())
}

/// A session's browser context in the shared browser.
pub struct Context {
    conn: Connection,
    id: String,
}

impl Context {
    /// The context's id (`browserContextId`).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Disposes of the context, closing its tabs. A browser already gone took it with it.
    pub async fn close(self) {
        if *self.conn.closed().borrow() {
            return;
        }
        let _ = tokio::time::timeout(
            DISPOSE_TIMEOUT,
            self.conn.execute(
                "Target.disposeBrowserContext",
                json!({ "browserContextId": self.id }),
            ),
        )
        .await;
    }
}
