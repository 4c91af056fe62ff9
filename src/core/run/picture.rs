//! A step's picture: how it is taken and what it marks, once for every driver.
//!
//! A verified step keeps a picture of the viewport before its input and after its effect
//! (the driver takes them with every secret covered). [`picture`] gives the parameters of
//! `Page.captureScreenshot`; [`marks`] turns what the driver measured in the page (CSS
//! pixels of the top viewport) into what the record shows, in the image's pixels: the
//! target's box, the effect's boxes, the point input went to, the covered boxes.

use serde::{Deserialize, Serialize};

use super::need::Point;
use super::screen::{Clip, Viewport};

/// The JPEG quality of a step's picture.
pub const PICTURE_QUALITY: u32 = 60;

/// The most pixels wide a step's picture is (11–14 kB a picture on the demo shop).
pub const PICTURE_MAX_WIDTH: f64 = 800.0;

/// How a step's picture is taken: `Page.captureScreenshot`'s parameters.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Picture {
    /// Always `jpeg`.
    pub format: &'static str,
    pub quality: u32,
    pub capture_beyond_viewport: bool,
    pub clip: Clip,
}

/// A step's picture of the visual viewport `view` (its `dpr` not read): the whole viewport,
/// a JPEG of [`PICTURE_QUALITY`] scaled to at most [`PICTURE_MAX_WIDTH`] pixels wide. The
/// pixel ratio is the visual viewport's width in device pixels (`device_width`,
/// `Page.getLayoutMetrics`'s `visualViewport.clientWidth`) over its width in CSS pixels, at
/// least 1; 1 when either is unknown.
pub fn picture(view: &Viewport, device_width: Option<f64>) -> Picture {
    let width = view.client_width;
    let device = device_width.filter(|d| d.is_finite()).unwrap_or(width);
    let dpr = if width > 0.0 {
        (device / width).max(1.0)
    } else {
        1.0
    };
    let full = width * dpr;
    Picture {
        format: "jpeg",
        quality: PICTURE_QUALITY,
        capture_beyond_viewport: false,
        clip: Clip {
            x: view.page_x,
            y: view.page_y,
            width,
            height: view.client_height,
            scale: if full > PICTURE_MAX_WIDTH {
                PICTURE_MAX_WIDTH / full
            } else {
                1.0
            },
        },
    }
}

/// A box in CSS pixels of the top viewport, or, in [`Marks`], in the image's pixels.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

/// What a picture marks, as the driver measured it in the page (CSS pixels), with the
/// image's width and the viewport's CSS width it was taken of.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Measured {
    pub image_width: f64,
    pub css_width: f64,
    /// The target's box; `None` when it has none now.
    #[serde(default)]
    pub target: Option<Rect>,
    /// The effect's elements' boxes, `None` for one that has none now.
    #[serde(default)]
    pub effect: Vec<Option<Rect>>,
    /// Where the input went.
    #[serde(default)]
    pub point: Option<Point>,
    /// What was covered for the capture.
    #[serde(default)]
    pub masked: Vec<Rect>,
}

/// What a picture's record shows, in the image's pixels (a tenth of a pixel), and the
/// image pixels per CSS pixel (`scale`, four decimals).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Marks {
    pub scale: f64,
    pub target: Option<Rect>,
    /// Only the boxes with an area.
    pub effect: Vec<Rect>,
    pub point: Option<Point>,
    pub masked: Vec<Rect>,
}

/// The marks of a picture: every box and the point scaled from CSS pixels to the image's
/// (1 when the viewport's width is not known), the effect's empty or missing boxes left out.
pub fn marks(m: &Measured) -> Marks {
    let k = if m.css_width > 0.0 && m.image_width.is_finite() {
        m.image_width / m.css_width
    } else {
        1.0
    };
    let tenth = |v: f64| (v * k * 10.0).round() / 10.0;
    let scaled = |r: &Rect| Rect {
        x: tenth(r.x),
        y: tenth(r.y),
        width: tenth(r.width),
        height: tenth(r.height),
    };
    Marks {
        scale: (k * 10_000.0).round() / 10_000.0,
        target: m.target.as_ref().map(scaled),
        effect: m
            .effect
            .iter()
            .flatten()
            .filter(|r| r.width > 0.0 && r.height > 0.0)
            .map(scaled)
            .collect(),
        point: m.point.map(|p| Point {
            x: tenth(p.x),
            y: tenth(p.y),
        }),
        masked: m.masked.iter().map(scaled).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_steps_picture_is_the_viewport_at_most_800_pixels_wide() {
        let view = |w: f64| Viewport {
            page_x: 0.0,
            page_y: 40.0,
            client_width: w,
            client_height: 600.0,
            dpr: 0.0,
        };
        let p = picture(&view(1280.0), Some(2560.0));
        assert_eq!(
            (p.format, p.quality, p.capture_beyond_viewport),
            ("jpeg", 60, false)
        );
        assert_eq!(
            p.clip,
            Clip {
                x: 0.0,
                y: 40.0,
                width: 1280.0,
                height: 600.0,
                scale: 800.0 / 2560.0
            }
        );
        assert_eq!(
            picture(&view(640.0), Some(640.0)).clip.scale,
            1.0,
            "narrow: as it is"
        );
        assert_eq!(
            picture(&view(640.0), Some(320.0)).clip.scale,
            1.0,
            "a ratio below 1 counts as 1"
        );
        assert_eq!(
            picture(&view(1000.0), None).clip.scale,
            0.8,
            "no device width: ratio 1"
        );
        assert_eq!(picture(&view(0.0), None).clip.scale, 1.0);
    }

    #[test]
    fn marks_are_in_the_images_pixels_to_a_tenth() {
        let r = |x, y, width, height| Rect {
            x,
            y,
            width,
            height,
        };
        let m = marks(&Measured {
            image_width: 800.0,
            css_width: 1280.0,
            target: Some(r(100.0, 50.0, 33.0, 20.0)),
            effect: vec![
                None,
                Some(r(0.0, 0.0, 0.0, 10.0)),
                Some(r(10.0, 10.0, 10.0, 10.0)),
            ],
            point: Some(Point { x: 116.5, y: 60.0 }),
            masked: vec![r(1.0, 1.0, 3.0, 3.0)],
        });
        assert_eq!(m.scale, 0.625);
        assert_eq!(m.target, Some(r(62.5, 31.3, 20.6, 12.5)));
        assert_eq!(
            m.effect,
            vec![r(6.3, 6.3, 6.3, 6.3)],
            "empty and missing boxes left out"
        );
        assert_eq!(m.point, Some(Point { x: 72.8, y: 37.5 }));
        assert_eq!(m.masked, vec![r(0.6, 0.6, 1.9, 1.9)]);
        let unknown = marks(&Measured {
            image_width: 800.0,
            css_width: 0.0,
            point: Some(Point { x: 1.04, y: 2.0 }),
            ..Measured::default()
        });
        assert_eq!(
            (unknown.scale, unknown.point),
            (1.0, Some(Point { x: 1.0, y: 2.0 }))
        );
    }
}
