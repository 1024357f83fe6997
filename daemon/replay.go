package daemon

import (
	"context"
	"fmt"
	"io"

	"github.com/gloved/gloved/devices/recording"
	"github.com/gloved/gloved/devices/replay"
	"github.com/gloved/gloved/session"
	"github.com/gloved/gloved/view"
)

// ReplayOpts is a recording played through the whole pipeline and OSC
// (`gloved replay`).
type ReplayOpts struct {
	Recording string
	Speed     string // session.SpeedRealTime or session.SpeedMax
	Scene     []session.SceneFile
	Wrist     []float64 // fixed wrist pose; nil: the recording's
	Targets   []string
	// Profiles send the replay in other dialects or coordinates too, as
	// a config's [[osc.profile]]s do.
	Profiles  []ProfileConfig
	Listen    string
	Proximity float64
	// View, if set, is the live page's server the replay shows its
	// frames on; it stays open when the replay ends (the caller's).
	View *view.Server
}

// NewReplay builds a daemon for one recording: its hand is named after the
// recorded side, its OSC timetags count from the recording's creation (Header.Epoch) (so
// a replay's stream is reproducible), it has no frame budget to speak of,
// logs warnings and above to log, and Run returns when the recording ends.
// Loading the scene is given up once ctx ends (Interrupted says so).
func NewReplay(ctx context.Context, o ReplayOpts, log io.Writer) (*Daemon, error) {
	cfg, h, err := replayConfig(o)
	if err != nil {
		return nil, err
	}
	if err := cfg.canStart(); err != nil { // as a config's: exit 2, said of the flag
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	epoch := h.Epoch()
	var c *carried
	if o.View != nil {
		c = &carried{view: o.View}
	}
	d, err := newDaemon(ctx, cfg, NewLogger(cfg, log), epoch, c)
	if err != nil {
		return nil, err
	}
	d.exitWhenDone, d.keepView = true, o.View != nil
	return d, nil
}

// replayConfig is the config of a replay's daemon, and the recording's
// header.
func replayConfig(o ReplayOpts) (*Config, recording.Header, error) {
	r, err := replay.Open(o.Recording, false)
	if err != nil {
		return nil, recording.Header{}, err
	}
	h := r.Header()
	r.Close()
	name := "right"
	if h.Hand == "left" {
		name = "left"
	}
	cfg := &Config{
		Hands: []HandConfig{{Name: name, Spec: session.Spec{Device: session.DeviceReplay, Recording: o.Recording, Speed: o.Speed, Wrist: o.Wrist}}},
		Scene: SceneConfig{Files: o.Scene},
		OSC:   OSCConfig{Targets: o.Targets, Listen: o.Listen, Profiles: o.Profiles},
		Frame: FrameConfig{ProximityM: o.Proximity, BudgetMS: 1000},
		Log:   LogConfig{Level: "warn"},
	}
	if o.View != nil {
		cfg.View.Listen = o.View.Addr().String()
	}
	if err := cfg.Normalize(); err != nil {
		return nil, h, err
	}
	return cfg, h, nil
}
