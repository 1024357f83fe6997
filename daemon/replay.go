package daemon

import (
	"fmt"
	"io"
	"time"

	"github.com/gloved/gloved/devices/recording"
	"github.com/gloved/gloved/session"
)

// ReplayOpts is a recording played through the whole pipeline and OSC
// (`gloved replay`).
type ReplayOpts struct {
	Recording string
	Speed     string // session.SpeedRealTime or session.SpeedMax
	Scene     []session.SceneFile
	Wrist     []float64 // fixed wrist pose; nil: the recording's
	Targets   []string
	Listen    string
	Proximity float64
}

// NewReplay builds a daemon for one recording: its hand is named after the
// recorded side, its OSC timetags count from the recording's creation (so
// a replay's stream is reproducible), it has no frame budget to speak of,
// logs warnings and above to log, and Run returns when the recording ends.
func NewReplay(o ReplayOpts, log io.Writer) (*Daemon, error) {
	r, err := recording.OpenReplay(o.Recording, false)
	if err != nil {
		return nil, err
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
		OSC:   OSCConfig{Targets: o.Targets, Listen: o.Listen},
		Frame: FrameConfig{ProximityM: o.Proximity, BudgetMS: 1000},
		Log:   LogConfig{Level: "warn"},
	}
	if err := cfg.Normalize(); err != nil {
		return nil, err
	}
	epoch, err := time.Parse(time.RFC3339, h.Created)
	if err != nil {
		return nil, fmt.Errorf("%s: the header's creation time %q: %w", o.Recording, h.Created, err)
	}
	d, err := NewAt(cfg, NewLogger(cfg, log), epoch)
	if err != nil {
		return nil, err
	}
	d.exitWhenDone = true
	return d, nil
}
