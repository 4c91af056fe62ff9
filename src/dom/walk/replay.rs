//! Replay: the answer of a full walk, read from a capture (see [`Capture`]).

use super::again::Again;
use super::capture::{Capture, FormHash, Slow, TextMemo, Visual};
use super::{deepest_focus, field_value, DocInfo, Found, Kind, Mode, Walk};
use crate::core::fingerprint::observable_hash;
use crate::core::model::{limits, Text, TextKind};
use crate::core::text::cap;
use crate::dom::el::El;
use crate::dom::js;
use crate::dom::role::{Attrs, Tag, A};

impl Walk<'_> {
    /// Answers from `capture` (see [`Capture`]). With `memo`, the visual facts (visibility,
    /// slow names and texts, and with `view` the viewport) are taken from the last replay
    /// instead of being read: the caller vouches that nothing that could change them has
    /// happened since (see `cache`). Form state is read either way; the returned [`Visual`]
    /// says what was read, and its `form` tells the caller whether the memo still held.
    pub fn replay(&mut self, capture: &Capture, memo: Option<&Visual>, view: bool) -> Visual {
        // A memo of another shape than the capture is not this capture's: read afresh.
        let memo = memo.filter(|m| {
            m.visible.len() == capture.elements.len()
                && m.texts.len() == capture.texts.len()
                && m.frames.len() == capture.frames.len()
                && m.in_view
                    .as_ref()
                    .is_none_or(|v| v.len() == capture.elements.len())
        });
        // A memo whose facts hold but for some restyled subtrees (`Visual::read_again`):
        // what those reach is read again, or all of it where the capture is out of order.
        let again = memo
            .filter(|m| !m.again.is_empty())
            .map(|m| Again::new(capture, &m.again));
        let (memo, again) = match again {
            Some(None) => (None, None),
            Some(again) => (memo, again),
            None => (memo, None),
        };
        let restyled = |i: usize| again.as_ref().is_some_and(|a| a.elements[i]);
        self.namer.label_index = capture.label_index.clone();
        let snapshot = self.mode != Mode::Fingerprint;
        if snapshot {
            if let Some(top) = capture.documents.first() {
                self.focused = deepest_focus(top);
            }
        }
        let view_memo = memo
            .filter(|_| view && snapshot)
            .and_then(|m| m.in_view.as_ref());
        let mut out = Visual {
            at: memo.map_or_else(js::now, |m| m.at),
            in_view: snapshot.then(|| Vec::with_capacity(capture.elements.len())),
            view_read: snapshot && view_memo.is_none(),
            reused: memo.is_some(),
            visible: Vec::with_capacity(capture.elements.len()),
            slow: Vec::new(),
            texts: Vec::with_capacity(capture.texts.len()),
            frames: Vec::with_capacity(capture.frames.len()),
            form: 0,
            places: memo.and_then(|m| m.places.clone()),
            place_words: memo.and_then(|m| m.place_words.clone()),
            again: Vec::new(),
        };
        // The documents again: sizes, hidden and in-view frames change without mutations.
        self.docs = capture
            .documents
            .iter()
            .map(|d| {
                let (width, height) = js::default_view(d)
                    .map(|v| (js::inner_width(&v), js::inner_height(&v)))
                    .unwrap_or((0.0, 0.0));
                DocInfo {
                    width,
                    height,
                    hidden: false,
                    in_view: true,
                    iframes: 0,
                }
            })
            .collect();
        for (i, f) in capture.frames.iter().enumerate() {
            let known = memo.and_then(|m| m.frames.get(i).copied());
            let Some(d) = f.doc else {
                out.frames.push((false, None));
                continue;
            };
            let parent = &self.docs[f.parent];
            let visible = match known {
                Some((hidden, _)) => !hidden,
                None => !parent.hidden && self.s.visible(&f.node, f.scope_visibility),
            };
            let mut in_view = false;
            if visible && parent.in_view && snapshot {
                in_view = match (view_memo, known) {
                    (Some(_), Some((_, Some(v)))) => v,
                    _ => {
                        let rect = js::rect(&f.node);
                        rect.bottom() > 0.0
                            && rect.top() < parent.height
                            && rect.right() > 0.0
                            && rect.left() < parent.width
                    }
                };
            }
            self.docs[d].hidden = !visible;
            self.docs[d].in_view = in_view;
            let kept = if snapshot {
                Some(in_view)
            } else {
                known.and_then(|k| k.1)
            };
            out.frames.push((!visible, kept));
        }
        let mut form = FormHash::default();
        for (node, tag, present) in &capture.fields {
            let el = El::cached(self.s, node, *tag, *present);
            let value = field_value(&el);
            form.add_str(value.as_deref());
            if let Some(v) = value {
                self.redactor.add_secret(&v);
            }
        }
        // Fingerprints of a page without secrets need no records, only their hashes: those
        // of unchanged records come from the capture (with secrets, names must be scrubbed).
        let hash_only = self.hash_only && !snapshot && self.redactor.is_empty();
        let mut slow_at = 0;
        for (i, e) in capture.elements.iter().enumerate() {
            let el = El::cached(self.s, &e.node, e.tag, e.present)
                .with_input_type(e.input_type.as_ref());
            let visible = match memo {
                Some(m) if !restyled(i) => m.visible[i],
                _ => {
                    !self.docs[e.ctx.doc].hidden
                        && self.s.visible(&e.node, e.ctx.scope.visibility)
                        && !el.is_hidden_twin()
                }
            };
            out.visible.push(visible);
            let known_view = view_memo.and_then(|v| v[i]);
            if snapshot && known_view.is_none() {
                self.view_reads += 1;
            }
            let form_tag = matches!(
                e.tag,
                Tag::Input | Tag::Textarea | Tag::Select | Tag::Option
            );
            if hash_only && !e.slow && !form_tag {
                // The record is the capture's with this visibility: so is its hash.
                self.hashed.add_hash(capture.hash_of(i, visible));
                continue;
            }
            let record = if e.slow {
                let kept = memo.and_then(|m| {
                    while slow_at < m.slow.len() && (m.slow[slow_at].at as usize) < i {
                        slow_at += 1;
                    }
                    m.slow.get(slow_at).filter(|s| s.at as usize == i)
                });
                // Read from a restyled subtree, or from nodes holding one: read again.
                let kept = kept.filter(|k| match &again {
                    None => true,
                    Some(a) => !a.elements[i] && k.sources.as_ref().is_some_and(|s| !a.touches(s)),
                });
                let (r, sources) = match kept {
                    Some(kept) => {
                        let mut r = kept.record.clone();
                        if form_tag {
                            self.dynamic(&el, e.role, &mut r);
                        }
                        self.place_known(&e.node, &e.ctx, &mut r, known_view);
                        (r, kept.sources.clone())
                    }
                    None => {
                        self.namer.labels = e.ctx.scope.labels && (e.ctx.in_label || el.has(A::Id));
                        self.namer.visibility_rules = e.ctx.scope.visibility;
                        let r = self
                            .record(
                                &el,
                                e.role,
                                &e.ctx,
                                visible,
                                Kind::of(e.opaque, e.record.clickable),
                                e.landmark.clone(),
                            )
                            .record;
                        let sources = (!self.namer.unresolved).then(|| {
                            let read = std::mem::take(&mut self.namer.read);
                            std::iter::once(e.node.clone().into()).chain(read).collect()
                        });
                        (r, sources)
                    }
                };
                out.slow.push(Slow {
                    at: i as u32,
                    record: r.clone(),
                    sources,
                });
                r
            } else {
                let mut r = e.record.clone();
                r.visible = visible;
                if form_tag {
                    self.dynamic(&el, e.role, &mut r);
                }
                self.place_known(&e.node, &e.ctx, &mut r, known_view);
                r
            };
            if form_tag {
                form.add_state(&record);
            }
            let hash = hash_only.then(|| observable_hash(&record));
            if let Some(v) = &mut out.in_view {
                v.push(Some(record.in_viewport));
            }
            if let (true, Some(h)) = (hash_only, hash) {
                self.hashed.add_hash(h);
                continue;
            }
            let node = snapshot.then(|| e.node.clone());
            self.found.push(Found { record, node });
        }
        for (j, t) in capture.texts.iter().enumerate() {
            if t.text.as_deref() == Some("") {
                // Known empty: nothing to report whatever its visibility.
                out.texts.push(TextMemo::Empty);
                continue;
            }
            let known = memo
                .and_then(|m| m.texts.get(j))
                .filter(|k| !matches!(k, TextMemo::Empty))
                .filter(|k| match (&again, k) {
                    (None, _) => true,
                    // A text of its own element's: only its visibility can have changed.
                    // Any other reads what it holds (and what its `aria-labelledby`s name),
                    // which a restyle there can hide.
                    (Some(a), TextMemo::Slow(_, Some(sources))) => {
                        !a.texts[j] && !a.touches(sources)
                    }
                    (Some(_), TextMemo::Slow(_, None)) => false,
                    (Some(a), _) => !a.texts[j],
                });
            let shown = match known {
                Some(k) => !matches!(k, TextMemo::Hidden),
                None => {
                    !self.docs[t.ctx.doc].hidden && self.s.visible(&t.node, t.ctx.scope.visibility)
                }
            };
            if !shown {
                out.texts.push(TextMemo::Hidden);
                continue;
            }
            let text = match (&t.text, known) {
                (Some(_), _) => {
                    out.texts.push(TextMemo::Shown);
                    None
                }
                (None, Some(TextMemo::Slow(text, sources))) => {
                    out.texts
                        .push(TextMemo::Slow(text.clone(), sources.clone()));
                    Some(text.clone())
                }
                (None, _) => {
                    let el = El::cached(self.s, &t.node, t.tag, t.present);
                    self.namer.forget();
                    let text = if t.kind == TextKind::Plain {
                        self.run_text(&el, &t.ctx)
                    } else {
                        self.namer.visibility_rules = t.ctx.scope.visibility;
                        self.namer.labels = false;
                        self.namer.content(&el, true)
                    };
                    let sources = (!self.namer.unresolved).then(|| {
                        let read = std::mem::take(&mut self.namer.read);
                        std::iter::once(t.node.clone().into()).chain(read).collect()
                    });
                    out.texts.push(TextMemo::Slow(text.clone(), sources));
                    Some(text)
                }
            };
            let Some(text) = text else {
                // The capture's own text: its hash is the capture's too.
                if t.kind == TextKind::Plain && !self.count_plain() {
                    continue;
                }
                if hash_only {
                    self.hashed.add_hash(t.hash());
                } else {
                    self.texts.push(t.record());
                }
                continue;
            };
            if text.is_empty() || (t.kind == TextKind::Plain && !self.count_plain()) {
                continue;
            }
            let text = Text {
                kind: t.kind,
                text: cap(&text, limits::MAX_TEXT_CHARS).into_owned(),
                region: String::from(&*t.ctx.region),
                frame: String::from(&*t.ctx.frame),
            };
            if hash_only {
                self.hashed.add_text(&text);
            } else {
                self.texts.push(text);
            }
        }
        self.has_more |= self.plain_capped;
        out.form = form.0;
        if !snapshot {
            // Fingerprints do not read the viewport: the memo's facts stay for the next
            // snapshot (the scroll checks of `cache` say whether they still hold).
            out.in_view = memo.and_then(|m| m.in_view.clone());
        }
        self.scrub();
        out
    }
}
