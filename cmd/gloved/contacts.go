package main

import (
	"math"

	"github.com/gloved/gloved/daemon"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/session"
	"github.com/gloved/gloved/view"

	"os"
	"path/filepath"

	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
)

type contactJSON struct {
	Link   string     `json:"link"`
	Object string     `json:"object"`
	Depth  float64    `json:"depth"`
	Point  [3]float64 `json:"point"`
	Normal [3]float64 `json:"normal"`
	Tris   int        `json:"tris"`
	Exact  bool       `json:"exact"`
}

type nearJSON struct {
	Link     string     `json:"link"`
	Object   string     `json:"object"`
	Distance float64    `json:"distance"`
	Point    [3]float64 `json:"point"`
}

// selfJSON is two links of the hand touching.
type selfJSON struct {
	Links [2]string  `json:"links"`
	Depth float64    `json:"depth"`
	Point [3]float64 `json:"point"`
}

// pinchJSON is a finger against the thumb: its distance, whether it
// pinches, and "begin" or "end" on the frame that changes it.
type pinchJSON struct {
	Finger   string  `json:"finger"`
	Distance float64 `json:"distance"`
	Pinching bool    `json:"pinching"`
	Event    string  `json:"event,omitempty"`
}

// fistJSON is whether the hand is a fist, and "begin" or "end" on the
// frame that changes it.
type fistJSON struct {
	Closed bool   `json:"closed"`
	Event  string `json:"event,omitempty"`
}

type frameJSON struct {
	Frame    int           `json:"frame"`
	T        float64       `json:"t"`
	Contacts []contactJSON `json:"contacts"`
	Near     []nearJSON    `json:"near"`
	Self     []selfJSON    `json:"self"`
	Pinch    []pinchJSON   `json:"pinch"`
	Fist     *fistJSON     `json:"fist,omitempty"`
}

func vec(v geom.Vec3) [3]float64 { return [3]float64{round9(v.X), round9(v.Y), round9(v.Z)} }

func round9(x float64) float64 { return roundTo(x, 1e9) }

// roundTo rounds x to the nearest multiple of 1/k, halves away from zero.
// An x beyond 2^53/k has no finer digits than that already, and comes back
// as it is: through an int64 it would saturate, and flip its sign. Zero
// is +0: a value a hair below zero rounded to -0, which JSON prints as
// -0, so two runs whose answers differed by 1e-15 printed differently.
func roundTo(x, k float64) float64 {
	if !(math.Abs(x) < (1<<53)/k) {
		return x
	}
	return math.Round(x*k)/k + 0 // -0 + 0 is +0
}

func runContacts(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("contacts", "gloved contacts --scene FILE[,FILE] (--recording FILE | --sim) [--motion M] [--frames N] [--wrist-pose POSE] [--proximity M] [--calibration FILE] [--mesh FILE.glb] [--no-accel] [--workers N] [--json] [--view ADDR]\n       gloved contacts --hands CONFIG.toml [--frames N]", out)
	o := addSessionFlags(fs)
	asJSON := fs.Bool("json", false, "one JSON object per frame")
	viewAt := fs.String("view", "", "then show the session on the live 3D page served here (host:port, e.g. 127.0.0.1:8080), with a time slider, until Ctrl-C")
	hands := fs.String("hands", "", "run the two or more [[hand]]s of this config together and print, as JSON, each hand's contacts with the scene and with the other hands")
	if err := parseFlagsOnly(fs, args); err != nil {
		return err
	}
	if *hands != "" {
		limit, err := handsFrames(fs, o, *viewAt)
		if err != nil {
			return err
		}
		return runHandsContacts(ctx, *hands, limit, out)
	}
	var v *view.Server
	if *viewAt != "" { // before any frame: an address it cannot serve is said at once
		var err error
		if v, err = listenView(*viewAt); err != nil {
			return err
		}
		defer v.Close()
	}
	s, err := o.open(session.PipelineOptions{SelfContact: true})
	if err != nil {
		return err
	}
	defer s.Close()
	enc := json.NewEncoder(out)
	each := func() error {
		fj := frameRecord(s)
		if *asJSON {
			return enc.Encode(&fj)
		}
		_, err := fmt.Fprintf(out, "frame %d t=%.3fs: %s\n", fj.Frame, fj.T, contactsLine(&fj))
		return err
	}
	if v == nil {
		if err := runFrames(ctx, s, o.limit(), each); err != nil {
			return err
		}
		warnDamage(s)
		if cutShort(ctx, s.Frames, o.limit()) {
			return fmt.Errorf("contacts interrupted after %d frames: those are listed above; run it again and let it finish, or give --frames", s.Frames)
		}
		return nil
	}
	return viewContacts(ctx, s, o, v, each)
}

// handsFrames checks the flags given with --hands, which takes the hands,
// the scene and the band from its config, and returns the frames to run
// (0: all).
func handsFrames(fs *flag.FlagSet, o *sessionOpts, viewAt string) (int, error) {
	for _, f := range []string{"scene", "recording", "sim", "motion", "wrist", "wrist-pose", "proximity", "calibration", "mesh", "no-accel"} {
		if flagSet(fs, f) {
			return 0, fmt.Errorf("%w: --hands takes the hands, the scene and the band from its config: leave out --%s (only --frames goes with it)", errUsage, f)
		}
	}
	limit := 0
	if flagSet(fs, "frames") {
		if err := atLeast("frames", o.frames, 1); err != nil {
			return 0, err
		}
		limit = o.frames
	}
	if viewAt != "" {
		return 0, fmt.Errorf("%w: --view shows one hand's session: leave out --hands", errUsage)
	}
	return limit, nil
}

// contactsLine words a frame's contacts, near objects, self-contacts,
// pinch and fist events for a person: "-" for none.
func contactsLine(fj *frameJSON) string {
	var parts []string
	for _, c := range fj.Contacts {
		parts = append(parts, fmt.Sprintf("%s in %s %.1f mm", c.Link, c.Object, c.Depth*1e3))
	}
	for _, n := range fj.Near {
		parts = append(parts, fmt.Sprintf("%s near %s %.1f mm", n.Link, n.Object, n.Distance*1e3))
	}
	for _, c := range fj.Self {
		parts = append(parts, fmt.Sprintf("%s on %s %.1f mm", c.Links[0], c.Links[1], c.Depth*1e3))
	}
	for _, p := range fj.Pinch {
		if p.Event != "" {
			parts = append(parts, fmt.Sprintf("%s pinch %s at %.1f mm", p.Finger, p.Event, p.Distance*1e3))
		}
	}
	if fj.Fist != nil && fj.Fist.Event != "" {
		parts = append(parts, "fist "+fj.Fist.Event)
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}

// viewContacts runs the session, calling each per frame, into a timeline,
// and shows it on the live page v until ctx is done.
func viewContacts(ctx context.Context, s *session.Session, o *sessionOpts, v *view.Server, each func() error) error {
	tl, err := daemon.Timeline(ctx, s, o.limit(), each)
	if err == nil {
		err = heldSamples(ctx, s)
	}
	if err != nil {
		return err
	}
	warnDamage(s)
	if cutShort(ctx, s.Frames, o.limit()) {
		return fmt.Errorf("contacts interrupted after %d frames, before the page was shown: run it again and let it finish, or give --frames", s.Frames)
	}
	if err := showTimeline(v, tl); err != nil {
		return err
	}
	hand := view.NewHand(handName(s), s.Pipeline.Hand(), s.Pipeline.Body())
	sc := view.Scene{Objects: view.SceneObjects(s.Pipeline.Scene()), Hands: []view.Hand{hand},
		BudgetMS: daemon.DefaultBudgetMS, Proximity: o.proximity, Title: sessionTitle(o)}
	if err := v.SetScene(sc); err != nil {
		return err
	}
	showUntilDone(ctx, v, fmt.Sprintf("%d frames", s.Frames), os.Stderr)
	return nil
}

// handName names a session's hand by its side.
func handName(s *session.Session) string {
	if s.Info.Right {
		return "right"
	}
	return "left"
}

// sessionTitle says what a session is, for the page's title.
func sessionTitle(o *sessionOpts) string {
	if o.sim {
		return "simulated " + o.motion
	}
	return filepath.Base(o.recording)
}
