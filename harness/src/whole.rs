//! A need of the whole page answered root by root, by the machine's rules.
//!
//! A page whose frames of other origins have engines of their own has several roots. What an
//! observation, a fingerprint or a settle of such a page is (which root's failure is the
//! page's, how the parts merge and join, the settle loop over them) is the machine's
//! composition (`prufe::core::run::whole`), the same that the packages' drivers answer root by
//! root. The harness keeps its merged observation between needs (its roots route refs), so it
//! runs that composition here, answering its reads over the protocol: the clock and a wait,
//! the roots, one root's snapshot, one root's pulse.

use crate::error::{Error, Result};
use crate::inject::Engine;
use crate::observe::{root_filters, root_of, Observation, Root, Sensitive};
use prufe::core::background::Background;
use prufe::core::run::whole::{Composed, Composing};
use prufe::core::run::{Answer, Need, Read};
use std::time::{Duration, Instant};

/// The answer to `need`, a need of the whole page, from `first` (the page's own answer, or
/// its roots: `Answer::Roots`), asking each root what the composition asks. `roots` are the
/// roots the paths name until the composition reads them again. A browser or page that is
/// gone ends it at once.
pub(crate) async fn compose(
    engine: &Engine,
    need: &Need,
    first: Answer,
    mut roots: Vec<Root>,
) -> Result<Answer> {
    let Some(mut composing) = Composing::of(need) else {
        return Ok(first);
    };
    let mut answer = first;
    loop {
        match composing.on(answer) {
            Composed::Done(answer) => return Ok(answer),
            Composed::Ask(next, asked) => {
                composing = *next;
                // Boxed: the futures of a drive nest deep, and a tokio worker's stack is small.
                answer = match Box::pin(read(engine, &asked, &mut roots)).await {
                    Ok(a) => a,
                    Err(e) if e.is_fatal() => return Err(e),
                    Err(e) => Answer::Failed { error: e.to_core() },
                };
            }
        }
    }
}

/// A merged snapshot of every root, with the refs in `sensitive` declared sensitive, and
/// the roots it was taken from. A page whose top document is being replaced is the
/// transient error it came with (`NOT_READY` when the machine says only that none was taken).
pub async fn observe(engine: &Engine, sensitive: &Sensitive) -> Result<Observation> {
    let roots = engine.roots().await?;
    let need = Need::Observe {
        sensitive: sensitive.merged(),
    };
    let answer = Box::pin(compose(engine, &need, named(&roots), roots.clone())).await?;
    match answer {
        Answer::Observed { snapshot } => Ok(Observation { snapshot, roots }),
        Answer::Failed { error } => Err(Error::Core(error)),
        _ => Err(Error::core(
            prufe::core::ErrorCode::NotReady,
            "the page's document is being replaced",
        )),
    }
}

/// The page's fingerprint over `roots` (those the engine's region filters leave something
/// of), leaving out what is in a slot of `background`: equal exactly when the next merged
/// snapshot's diff (under those filters) is empty. The top document's failure is the error
/// as it came.
pub async fn fingerprint(
    engine: &Engine,
    roots: &[Root],
    background: &Background,
) -> Result<String> {
    let shown = filtered(engine, roots.to_vec());
    let need = Need::Fingerprint {
        background: background.clone(),
    };
    match Box::pin(compose(engine, &need, named(&shown), shown)).await? {
        Answer::Fingerprint { fingerprint } => Ok(fingerprint),
        Answer::Failed { error } => Err(Error::Core(error)),
        other => Err(Error::core(
            prufe::core::ErrorCode::Internal,
            format!("a fingerprint was answered {:?}", other.name()),
        )),
    }
}

/// The roots a fingerprint reads: those the engine's region filters leave something of.
pub(crate) async fn roots(engine: &Engine) -> Result<Vec<Root>> {
    Ok(filtered(engine, engine.roots().await?))
}

/// `roots` without those the engine's region filters leave nothing of.
pub(crate) fn filtered(engine: &Engine, roots: Vec<Root>) -> Vec<Root> {
    roots
        .into_iter()
        .filter(|r| root_filters(engine.filters(), &r.path).is_some())
        .collect()
}

/// The answer naming `roots`.
pub(crate) fn named(roots: &[Root]) -> Answer {
    Answer::Roots {
        paths: roots.iter().map(|r| r.path.clone()).collect(),
    }
}

/// One read the composition asks for.
pub(crate) async fn read(engine: &Engine, asked: &Need, roots: &mut Vec<Root>) -> Result<Answer> {
    Ok(match asked {
        Need::Wait { ms } => {
            tokio::time::sleep(Duration::from_millis(*ms)).await;
            Answer::Waited { now: clock_ms() }
        }
        Need::Read { read: Read::Roots } => {
            *roots = self::roots(engine).await?;
            named(roots)
        }
        Need::Read {
            read: Read::Snapshot { path, sensitive },
        } => Answer::Observed {
            snapshot: engine
                .root_snapshot(root_of(roots, path)?, sensitive)
                .await?,
        },
        Need::Read {
            read: Read::Pulse { path, background },
        } => {
            let (fingerprint, quiet_for) = engine.pulse(root_of(roots, path)?, background).await?;
            Answer::Pulse {
                fingerprint,
                quiet_for,
            }
        }
        other => {
            return Err(Error::core(
                prufe::core::ErrorCode::Internal,
                format!("a need of the whole page asked {other:?}"),
            ))
        }
    })
}

/// The driver's clock for the machine's waits ([`Need::Wait`]): ms since its first reading.
fn clock_ms() -> f64 {
    static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    EPOCH.get_or_init(Instant::now).elapsed().as_secs_f64() * 1000.0
}
