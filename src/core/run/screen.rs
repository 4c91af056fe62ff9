//! The screenshot a coordinate step's points are chosen on, and the rules that come before
//! the machine runs such a step: the observation quoted must be the latest
//! (`STALE_OBSERVATION`), every point must lie inside its image (`POINT_OUT_OF_BOUNDS`, never
//! clamped), image pixels become CSS pixels of the top viewport through the capture's scale
//! and the pixel ratio, and the element the image showed under a point is the smallest
//! uncovered hit box holding it ([`aim`] turns a [`Pick`] into the machine's [`Action`]).
//! While the step runs, the page's own hit test is reconciled with the screenshot's boxes
//! ([`reconcile`]).
//!
//! Every driver (the CLI's executor, the npm package, the Python package) asks these
//! functions rather than writing them again: the wording of a refusal is part of the record
//! the parity suite compares. The trade-off: a driver hands the screenshot's boxes to the
//! machine module once per step (a few hundred element records), where it used to keep them
//! to itself.

use super::need::{Button, Point};
use super::step::{check_drag_steps, Action};
use crate::core::error::{Error, ErrorCode, Result};
use crate::core::identity::Identity;
use crate::core::model::Element;
use crate::core::text::cap;
use serde::{Deserialize, Serialize};

/// A size in pixels.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Size {
    pub width: f64,
    pub height: f64,
}

pub use super::hitbox::HitBox;

/// The widest image a screenshot may be asked for: `INVALID_ACTION` unless a finite number of
/// at least 1 (none: the capture as it is). The one check of every surface.
pub fn check_max_width(max_width: Option<f64>) -> Result<Option<f64>> {
    match max_width {
        Some(w) if !(w.is_finite() && w >= 1.0) => Err(Error::new(
            ErrorCode::InvalidAction,
            "\"maxWidth\" must be a number of at least 1",
        )),
        w => Ok(w),
    }
}

/// The visual viewport a screenshot captures, in CSS pixels (`Page.getLayoutMetrics`'s
/// `cssVisualViewport`: `pageX`, `pageY`, `clientWidth`, `clientHeight`), with the page's
/// device pixel ratio.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Viewport {
    pub page_x: f64,
    pub page_y: f64,
    pub client_width: f64,
    pub client_height: f64,
    /// The device pixel ratio; anything not a number above zero counts as 1.
    pub dpr: f64,
}

/// The region and scale of a downscaled capture (`Page.captureScreenshot`'s `clip`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Clip {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    pub scale: f64,
}

/// How a screenshot of the viewport is taken: the capture's size in device pixels, the pixel
/// ratio it was counted with, and the clip that downscales it when the image asked for is
/// narrower (none: the capture is the image, and [`Screen::capture`] is the image's size).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Framing {
    pub full: Size,
    pub dpr: f64,
    pub clip: Option<Clip>,
}

/// The framing of a screenshot of `view` at most `max_width` pixels wide: every driver takes
/// its screenshots so ([`check_max_width`] first).
pub fn framing(view: &Viewport, max_width: Option<f64>) -> Framing {
    let dpr = if view.dpr.is_finite() && view.dpr > 0.0 {
        view.dpr
    } else {
        1.0
    };
    let full = Size {
        width: (view.client_width * dpr).round(),
        height: (view.client_height * dpr).round(),
    };
    let clip = max_width.filter(|w| *w < full.width).map(|w| Clip {
        x: view.page_x,
        y: view.page_y,
        width: view.client_width,
        height: view.client_height,
        scale: w / full.width,
    });
    Framing { full, dpr, clip }
}

/// What a screenshot issued: the id a step quotes, the size of the image the caller saw
/// (points are given in its pixels), the capture's size in device pixels before any
/// downscale, the page's pixel ratio, and the hit boxes taken with it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Screen {
    pub id: String,
    pub image: Size,
    pub capture: Size,
    /// The device pixel ratio; anything not above zero counts as 1.
    pub dpr: f64,
    #[serde(default)]
    pub boxes: Vec<HitBox>,
}

impl Screen {
    /// Image pixels to capture (device) pixels: (412, 230) in a 1280×800 image of a
    /// 2560×1600 capture is (824, 460).
    pub fn to_capture(&self, p: Point) -> Point {
        Point {
            x: p.x * self.capture.width / self.image.width,
            y: p.y * self.capture.height / self.image.height,
        }
    }

    /// Image pixels to the CSS pixels of the top viewport, where input goes.
    pub fn to_css(&self, p: Point) -> Point {
        let c = self.to_capture(p);
        let dpr = if self.dpr > 0.0 { self.dpr } else { 1.0 };
        Point {
            x: c.x / dpr,
            y: c.y / dpr,
        }
    }

    /// CSS pixels per image pixel, across and down.
    pub fn scale(&self) -> Point {
        self.to_css(Point { x: 1.0, y: 1.0 })
    }

    /// Is `p` inside the image? Its right and bottom edges are outside.
    pub fn contains(&self, p: Point) -> bool {
        p.x >= 0.0 && p.y >= 0.0 && p.x < self.image.width && p.y < self.image.height
    }

    /// The element the screenshot showed under `p` (CSS pixels): [`identity_at`] its boxes.
    pub fn identity_at(&self, p: Point) -> Option<&Element> {
        identity_at(&self.boxes, p)
    }
}

/// The element under `p` when the boxes were taken: the smallest uncovered box holding it.
pub fn identity_at(boxes: &[HitBox], p: Point) -> Option<&Element> {
    boxes
        .iter()
        .filter(|b| b.topmost && b.width > 0.0 && b.height > 0.0 && b.contains(p))
        .min_by(|a, b| (a.width * a.height).total_cmp(&(b.width * b.height)))
        .map(|b| &b.element)
}

/// The screenshot `points` (image pixels) may be acted on: `latest`, when it is the one
/// `quoted` names (left out: whichever is the latest) and every point lies inside its image.
pub fn check<'a>(
    latest: Option<&'a Screen>,
    quoted: Option<&str>,
    points: &[Point],
) -> Result<&'a Screen> {
    let shown = |id: &str| format!("{:?}", cap(id, 60));
    let screen = match (latest, quoted) {
        (Some(s), None) => s,
        (Some(s), Some(id)) if s.id == id => s,
        (Some(s), Some(id)) => {
            return Err(Error::new(
                ErrorCode::StaleObservation,
                format!(
                    "observation {} is not the latest ({}): take a screenshot and choose again",
                    shown(id),
                    s.id
                ),
            ))
        }
        (None, Some(id)) => {
            return Err(Error::new(
                ErrorCode::StaleObservation,
                format!(
                    "observation {} is unknown: take a screenshot first",
                    shown(id)
                ),
            ))
        }
        (None, None) => {
            return Err(Error::new(
                ErrorCode::StaleObservation,
                "no screenshot to choose points on: take a screenshot first",
            ))
        }
    };
    for p in points {
        if !(p.x.is_finite() && p.y.is_finite()) {
            return Err(Error::new(
                ErrorCode::InvalidAction,
                "a point is {x, y}, two finite numbers of image pixels",
            ));
        }
        if !screen.contains(*p) {
            return Err(Error::new(
                ErrorCode::PointOutOfBounds,
                format!(
                    "point ({}, {}) is outside the {}×{} image of {}: choose a point inside it",
                    p.x, p.y, screen.image.width, screen.image.height, screen.id
                ),
            ));
        }
    }
    Ok(screen)
}

/// A pointer step as the caller chose it: points in image pixels of a screenshot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Pick {
    ClickAt {
        at: Point,
        #[serde(default)]
        button: Button,
    },
    /// `steps`: the moves on the way, an integer from 1 to 200 (10 when left out).
    DragAt {
        from: Point,
        to: Point,
        #[serde(default = "default_steps")]
        steps: f64,
    },
    /// A wheel turn of `dx`, `dy` image pixels, scaled as points are.
    ScrollAt { at: Point, dx: f64, dy: f64 },
}

fn default_steps() -> f64 {
    10.0
}

/// The machine's action for `pick`, once its points are [`check`]ed against `latest`: points
/// in CSS pixels, the elements the screenshot showed under them, and how the record names
/// the point (`(412, 230) on obs-3`).
pub fn aim(latest: Option<&Screen>, quoted: Option<&str>, pick: &Pick) -> Result<Action> {
    let points = match pick {
        Pick::ClickAt { at, .. } | Pick::ScrollAt { at, .. } => vec![*at],
        Pick::DragAt { from, to, .. } => vec![*from, *to],
    };
    let screen = check(latest, quoted, &points)?;
    let shown = |p: Point| Some(format!("({}, {}) on {}", p.x, p.y, screen.id));
    let under = |p: Point| screen.identity_at(p).cloned().map(Box::new);
    Ok(match *pick {
        Pick::ClickAt { at, button } => {
            let css = screen.to_css(at);
            Action::ClickAt {
                at: css,
                button,
                expected: under(css),
                shown: shown(at),
            }
        }
        Pick::DragAt { from, to, steps } => {
            let steps = check_drag_steps(steps)?;
            let (a, b) = (screen.to_css(from), screen.to_css(to));
            Action::DragAt {
                from: a,
                to: b,
                steps,
                expected: under(a),
                expected_to: under(b),
                shown: shown(from),
            }
        }
        Pick::ScrollAt { at, dx, dy } => {
            if !(dx.is_finite() && dy.is_finite()) {
                return Err(Error::new(
                    ErrorCode::InvalidAction,
                    "\"dx\" and \"dy\" must be finite numbers",
                ));
            }
            let css = screen.to_css(at);
            let unit = screen.scale();
            Action::ScrollAt {
                at: css,
                dx: dx * unit.x,
                dy: dy * unit.y,
                expected: under(css),
                shown: shown(at),
            }
        }
    })
}

/// Do the page's hit test (`now`) and the screenshot's boxes (`then`) agree on the element
/// under `at`? When they do, the page's answer stands and nothing more is asked.
pub fn agrees(then: &[HitBox], at: Point, now: Option<&Element>) -> bool {
    same_identity(identity_at(then, at), now)
}

/// Do two elements (or two absences) have the same identity?
fn same_identity(a: Option<&Element>, b: Option<&Element>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => Identity::of(a) == Identity::of(b),
        _ => false,
    }
}

/// `TARGET_CHANGED` when the element under `at` now (`now`, reconciled) is not the one the
/// observation showed there (`expected`), worded once for the machine's pointer steps and for
/// a driver's look under a point; `what` says what was therefore not done ("nothing was
/// clicked"). `None` when they are the same.
pub fn changed(
    at: Point,
    expected: Option<&Element>,
    now: Option<&Element>,
    what: &str,
) -> Option<Error> {
    if same_identity(expected, now) {
        return None;
    }
    let name = |e: Option<&Element>| {
        e.map_or_else(
            || "no observable element".to_owned(),
            crate::core::identity::describe_element,
        )
    };
    Some(Error::new(
        ErrorCode::TargetChanged,
        format!(
            "the point ({:.0}, {:.0}) now shows {}, not {} as in the observation; {what}: observe and choose again",
            at.x,
            at.y,
            name(now),
            name(expected),
        ),
    ))
}

/// The element under `at`, the page's hit test (`now`) reconciled with the screenshot's
/// boxes (`then`) and the boxes taken now (`boxes_now`, asked only when they do not
/// [`agree`](agrees)). The two hit tests may disagree on an unchanged page (an element whose
/// centre is covered, a frame element snapshots do not list); the boxes' element is then the
/// answer, unless the boxes give another answer now or the element under the point appeared
/// there since.
pub fn reconcile(
    then: &[HitBox],
    boxes_now: &[HitBox],
    at: Point,
    now: Option<Element>,
) -> Option<Element> {
    let expected = identity_at(then, at);
    if same_identity(expected, now.as_ref()) {
        return now;
    }
    let under = |boxes: &[HitBox], e: &Element| {
        boxes
            .iter()
            .any(|b| b.contains(at) && Identity::of(&b.element) == Identity::of(e))
    };
    let appeared = now
        .as_ref()
        .is_some_and(|n| under(boxes_now, n) && !under(then, n));
    let modelled = identity_at(boxes_now, at);
    if !appeared && same_identity(expected, modelled) {
        return modelled.cloned();
    }
    now
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::Role;

    #[test]
    fn a_screenshot_is_downscaled_only_where_the_image_asked_for_is_narrower() {
        let view = Viewport {
            page_x: 0.0,
            page_y: 120.0,
            client_width: 1280.0,
            client_height: 800.0,
            dpr: 2.0,
        };
        let f = framing(&view, Some(640.0));
        assert_eq!(
            f.full,
            Size {
                width: 2560.0,
                height: 1600.0
            }
        );
        assert_eq!(
            f.clip,
            Some(Clip {
                x: 0.0,
                y: 120.0,
                width: 1280.0,
                height: 800.0,
                scale: 0.25
            })
        );
        // Not narrower, or not asked: the capture is the image.
        assert_eq!(framing(&view, Some(2560.0)).clip, None);
        assert_eq!(framing(&view, None).clip, None);
        // A ratio that is no number above zero counts as 1.
        for dpr in [0.0, -1.0, f64::NAN] {
            let f = framing(&Viewport { dpr, ..view }, Some(640.0));
            assert_eq!((f.dpr, f.full.width), (1.0, 1280.0));
            assert_eq!(f.clip.map(|c| c.scale), Some(0.5));
        }
        // Half a device pixel rounds away from zero, as every driver counted it.
        let odd = framing(
            &Viewport {
                client_width: 333.0,
                client_height: 201.0,
                dpr: 1.5,
                ..view
            },
            None,
        );
        assert_eq!((odd.full.width, odd.full.height), (500.0, 302.0));
    }

    #[test]
    fn the_widest_image_asked_for_is_a_number_of_at_least_1() {
        assert_eq!(check_max_width(None).unwrap(), None);
        assert_eq!(check_max_width(Some(1.0)).unwrap(), Some(1.0));
        for bad in [0.5, 0.0, -3.0, f64::NAN, f64::INFINITY] {
            let e = check_max_width(Some(bad)).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidAction);
            assert_eq!(e.message, "\"maxWidth\" must be a number of at least 1");
        }
    }

    fn element(role: Role, name: &str) -> Element {
        Element {
            role,
            name: name.into(),
            reference: format!("e-{name}"),
            ..Element::default()
        }
    }

    fn hit(e: &Element, x: f64, y: f64, width: f64, height: f64, topmost: bool) -> HitBox {
        HitBox {
            element: e.clone(),
            x,
            y,
            width,
            height,
            topmost,
        }
    }

    fn screen(boxes: Vec<HitBox>) -> Screen {
        Screen {
            id: "obs-12".into(),
            image: Size {
                width: 1280.0,
                height: 800.0,
            },
            capture: Size {
                width: 2560.0,
                height: 1600.0,
            },
            dpr: 2.0,
            boxes,
        }
    }

    fn p(x: f64, y: f64) -> Point {
        Point { x, y }
    }

    #[test]
    fn image_points_become_css_pixels() {
        let s = screen(Vec::new());
        assert_eq!(s.to_capture(p(412.0, 230.0)), p(824.0, 460.0));
        assert_eq!(s.to_css(p(412.0, 230.0)), p(412.0, 230.0));
        let mut dpr2 = s.clone();
        dpr2.image = dpr2.capture;
        assert_eq!(dpr2.to_css(p(824.0, 460.0)), p(412.0, 230.0));
        assert_eq!(dpr2.scale(), p(0.5, 0.5));
        let mut halved = s.clone();
        halved.dpr = 1.0;
        assert_eq!(halved.scale(), p(2.0, 2.0));
        halved.dpr = 0.0;
        assert_eq!(halved.scale(), p(2.0, 2.0), "a ratio of 0 counts as 1");
    }

    #[test]
    fn checks_name_the_rule_and_what_to_do() {
        let s = screen(Vec::new());
        let message = |latest: Option<&Screen>, quoted: Option<&str>, points: &[Point]| {
            let e = check(latest, quoted, points).unwrap_err();
            (e.code, e.message)
        };
        for (name, latest, quoted, points, code, text) in [
            ("stale", Some(&s), Some("obs-11"), vec![p(1.0, 1.0)], ErrorCode::StaleObservation,
             "observation \"obs-11\" is not the latest (obs-12): take a screenshot and choose again"),
            ("unknown", None, Some("obs-3"), vec![p(1.0, 1.0)], ErrorCode::StaleObservation,
             "observation \"obs-3\" is unknown: take a screenshot first"),
            ("none at all", None, None, vec![p(1.0, 1.0)], ErrorCode::StaleObservation,
             "no screenshot to choose points on: take a screenshot first"),
            ("outside", Some(&s), Some("obs-12"), vec![p(1412.0, 230.0)], ErrorCode::PointOutOfBounds,
             "point (1412, 230) is outside the 1280×800 image of obs-12: choose a point inside it"),
            ("right edge", Some(&s), None, vec![p(1280.0, 0.0)], ErrorCode::PointOutOfBounds,
             "point (1280, 0) is outside the 1280×800 image of obs-12: choose a point inside it"),
            ("negative, second point", Some(&s), None, vec![p(1.0, 1.0), p(-0.5, 3.0)], ErrorCode::PointOutOfBounds,
             "point (-0.5, 3) is outside the 1280×800 image of obs-12: choose a point inside it"),
            ("not finite", Some(&s), None, vec![p(f64::NAN, 3.0)], ErrorCode::InvalidAction,
             "a point is {x, y}, two finite numbers of image pixels"),
        ] {
            assert_eq!(message(latest, quoted, &points), (code, text.to_owned()), "{name}");
        }
        let long = "o".repeat(80);
        assert!(message(None, Some(&long), &[])
            .1
            .contains(&format!("{}…", "o".repeat(60))));
        assert_eq!(
            check(Some(&s), Some("obs-12"), &[p(0.0, 799.5)])
                .unwrap()
                .id,
            "obs-12"
        );
        assert_eq!(
            check(Some(&s), None, &[]).unwrap().id,
            "obs-12",
            "left out: the latest"
        );
    }

    #[test]
    fn identity_at_prefers_the_smallest_uncovered_box() {
        let main = element(Role::Main, "main");
        let save = element(Role::Button, "Save");
        let covered = element(Role::Button, "covered");
        let boxes = vec![
            hit(&main, 0.0, 0.0, 100.0, 100.0, true),
            hit(&save, 10.0, 10.0, 20.0, 10.0, true),
            hit(&covered, 10.0, 10.0, 5.0, 5.0, false),
            hit(&covered, 12.0, 12.0, 0.0, 0.0, true),
        ];
        assert_eq!(identity_at(&boxes, p(12.0, 12.0)), Some(&save));
        assert_eq!(identity_at(&boxes, p(50.0, 50.0)), Some(&main));
        assert_eq!(
            identity_at(&boxes, p(100.0, 50.0)),
            None,
            "the right edge is outside"
        );
        assert_eq!(identity_at(&boxes, p(500.0, 50.0)), None);
    }

    #[test]
    fn aim_checks_converts_and_names_the_point() {
        let save = element(Role::Button, "Save");
        let list = element(Role::List, "Done");
        let s = screen(vec![
            hit(&save, 400.0, 220.0, 40.0, 20.0, true),
            hit(&list, 0.0, 400.0, 600.0, 200.0, true),
        ]);
        let click = aim(
            Some(&s),
            Some("obs-12"),
            &Pick::ClickAt {
                at: p(412.0, 230.0),
                button: Button::Right,
            },
        )
        .unwrap();
        assert_eq!(
            click,
            Action::ClickAt {
                at: p(412.0, 230.0),
                button: Button::Right,
                expected: Some(Box::new(save.clone())),
                shown: Some("(412, 230) on obs-12".into()),
            }
        );
        let mut small = s.clone();
        small.image = Size {
            width: 640.0,
            height: 400.0,
        };
        match aim(
            Some(&small),
            None,
            &Pick::DragAt {
                from: p(206.0, 115.5),
                to: p(100.0, 250.0),
                steps: 4.0,
            },
        )
        .unwrap()
        {
            Action::DragAt {
                from,
                to,
                steps,
                expected,
                expected_to,
                shown,
            } => {
                assert_eq!((from, to, steps), (p(412.0, 231.0), p(200.0, 500.0), 4));
                assert_eq!(expected.as_deref(), Some(&save));
                assert_eq!(expected_to.as_deref(), Some(&list));
                assert_eq!(shown.as_deref(), Some("(206, 115.5) on obs-12"));
            }
            other => panic!("{other:?}"),
        }
        match aim(
            Some(&small),
            None,
            &Pick::ScrollAt {
                at: p(1.0, 1.0),
                dx: 0.0,
                dy: 50.0,
            },
        )
        .unwrap()
        {
            Action::ScrollAt {
                at,
                dx,
                dy,
                expected,
                ..
            } => {
                assert_eq!((at, dx, dy, expected), (p(2.0, 2.0), 0.0, 100.0, None));
            }
            other => panic!("{other:?}"),
        }
        for (name, pick, code) in [
            (
                "drag of 0 steps",
                Pick::DragAt {
                    from: p(1.0, 1.0),
                    to: p(2.0, 2.0),
                    steps: 0.0,
                },
                ErrorCode::InvalidAction,
            ),
            (
                "drag of 2.5 steps",
                Pick::DragAt {
                    from: p(1.0, 1.0),
                    to: p(2.0, 2.0),
                    steps: 2.5,
                },
                ErrorCode::InvalidAction,
            ),
            (
                "drag of 201 steps",
                Pick::DragAt {
                    from: p(1.0, 1.0),
                    to: p(2.0, 2.0),
                    steps: 201.0,
                },
                ErrorCode::InvalidAction,
            ),
            (
                "drag to outside",
                Pick::DragAt {
                    from: p(1.0, 1.0),
                    to: p(2.0, 900.0),
                    steps: 3.0,
                },
                ErrorCode::PointOutOfBounds,
            ),
            (
                "infinite wheel",
                Pick::ScrollAt {
                    at: p(1.0, 1.0),
                    dx: f64::INFINITY,
                    dy: 0.0,
                },
                ErrorCode::InvalidAction,
            ),
        ] {
            assert_eq!(aim(Some(&s), None, &pick).unwrap_err().code, code, "{name}");
        }
        assert_eq!(
            aim(
                None,
                None,
                &Pick::ClickAt {
                    at: p(1.0, 1.0),
                    button: Button::Left
                }
            )
            .unwrap_err()
            .code,
            ErrorCode::StaleObservation
        );
        let wire: Pick =
            serde_json::from_str(r#"{"kind":"dragAt","from":{"x":1,"y":2},"to":{"x":3,"y":4}}"#)
                .unwrap();
        assert_eq!(
            wire,
            Pick::DragAt {
                from: p(1.0, 2.0),
                to: p(3.0, 4.0),
                steps: 10.0
            }
        );
    }

    #[test]
    fn a_point_that_shows_another_element_is_target_changed_naming_both() {
        let save = element(Role::Button, "Save");
        let accept = element(Role::Button, "Accept all");
        let at = Point { x: 10.4, y: 20.6 };
        assert_eq!(
            changed(at, Some(&save), Some(&save), "nothing was sent"),
            None
        );
        assert_eq!(changed(at, None, None, "nothing was sent"), None);
        let e = changed(at, Some(&save), Some(&accept), "nothing was sent").expect("changed");
        assert_eq!(e.code, ErrorCode::TargetChanged);
        assert_eq!(
            e.message,
            "the point (10, 21) now shows button[Accept all], not button[Save] as in the \
             observation; nothing was sent: observe and choose again"
        );
        let gone = changed(at, Some(&save), None, "nothing was clicked").expect("changed");
        assert!(gone
            .message
            .contains("now shows no observable element, not button[Save]"));
    }

    #[test]
    fn the_page_hit_test_is_reconciled_with_the_boxes() {
        let card = element(Role::Link, "Card");
        let title = element(Role::Heading, "Title");
        let banner = element(Role::Button, "Accept cookies");
        let at = p(50.0, 50.0);
        // The card's centre is covered by its title: the boxes show the card at `at`, the
        // page's hit test the title.
        let then = vec![
            hit(&card, 0.0, 0.0, 200.0, 100.0, true),
            hit(&title, 0.0, 60.0, 200.0, 40.0, true),
        ];
        assert!(agrees(&then, at, Some(&card)));
        assert!(!agrees(&then, at, Some(&title)));
        assert!(agrees(&[], at, None));
        for (name, now, boxes_now, want) in [
            (
                "agreeing: the page's answer",
                Some(card.clone()),
                then.clone(),
                Some(card.clone()),
            ),
            (
                "unchanged page, the hit test elsewhere: the boxes' element",
                Some(title.clone()),
                then.clone(),
                Some(card.clone()),
            ),
            (
                "the boxes now give another answer: the page's",
                Some(title.clone()),
                vec![hit(&title, 0.0, 0.0, 200.0, 100.0, true)],
                Some(title.clone()),
            ),
            (
                "a banner appeared under the point: the page's",
                Some(banner.clone()),
                vec![
                    hit(&card, 0.0, 0.0, 200.0, 100.0, true),
                    hit(&banner, 0.0, 40.0, 300.0, 30.0, false),
                ],
                Some(banner.clone()),
            ),
            (
                "nothing under the point now, the boxes unchanged: the boxes' element",
                None,
                then.clone(),
                Some(card.clone()),
            ),
            (
                "the boxes show nothing now: nothing",
                None,
                Vec::new(),
                None,
            ),
        ] {
            assert_eq!(reconcile(&then, &boxes_now, at, now), want, "{name}");
        }
        // Nothing shown there then: a hit now is a change, whatever the boxes say now.
        assert_eq!(reconcile(&[], &then, at, Some(card.clone())), Some(card));
    }
}
