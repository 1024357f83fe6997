package daemon

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"
	"github.com/rs/zerolog"

	"github.com/gloved/gloved/configs"
)

// handshakeDaemon starts the shipped configs/handshake.toml (two simulated
// hands closing on each other) with its OSC sent nowhere but to onFrame,
// changed by edit, for runFor.
func handshakeDaemon(t *testing.T, runFor time.Duration, edit func(*Config), onFrame func(d *Daemon, hand string, ms []*goosc.Message)) {
	t.Helper()
	text, err := configs.Files.ReadFile("handshake.toml")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ParseConfig("handshake.toml", text)
	if err != nil {
		t.Fatal(err)
	}
	cfg.OSC.Targets, cfg.OSC.Listen = nil, "127.0.0.1:0"
	cfg.Path = "" // the built-in scene needs no directory
	if edit != nil {
		edit(cfg)
	}
	if err := cfg.Normalize(); err != nil {
		t.Fatal(err)
	}
	d, err := New(cfg, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	d.onFrame = func(hand string, packets [][]byte) {
		var ms []*goosc.Message
		for _, pk := range packets {
			p, err := goosc.ParsePacket(string(pk))
			if err != nil {
				t.Errorf("undecodable packet: %v", err)
				return
			}
			ms = append(ms, p.(*goosc.Bundle).Messages...)
		}
		onFrame(d, hand, ms)
	}
	if raceEnabled {
		runFor *= 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), runFor)
	defer cancel()
	if err := d.Run(ctx); err != nil {
		t.Fatal(err)
	}
}

// pairKey is a (link, other link) pair of a hand message.
type pairKey struct{ link, other string }

// TestHandsMeetOnTheWire: two simulated hands shaking, through the daemon
// at full depth: every frame, each hand's /hand messages name exactly the
// (link, other link) pairs that brute force finds touching between the
// poses that frame tested (the hand's own and the other's newest), and its
// /handnear messages the pairs within the band; no /lod, as the budget
// allows full depth.
func TestHandsMeetOnTheWire(t *testing.T) {
	var mu sync.Mutex
	framesWith := map[string]int{}
	frames := map[string]int{}
	handshakeDaemon(t, 3500*time.Millisecond, func(c *Config) { c.Frame.BudgetMS = 1000 }, func(d *Daemon, hand string, ms []*goosc.Message) {
		i := 0
		if hand == "left" {
			i = 1
		}
		own, other, met := d.pairs.Tested(i)
		det := d.pairs.Detector(i, 1-i)
		if !met || det == nil {
			return // the other hand has not published yet, or was late
		}
		wantC, wantN := det.Exact(own, other, nil, nil)
		const tol = 1e-7
		touch, near := map[pairKey]float64{}, map[pairKey]float64{}
		for _, c := range wantC {
			touch[pairKey{c.Link.String(), c.Other.String()}] = c.Depth
		}
		for _, n := range wantN {
			near[pairKey{n.Link.String(), n.Other.String()}] = n.Distance
		}
		gotC, gotN := map[pairKey]bool{}, map[pairKey]bool{}
		for _, m := range ms {
			switch {
			case strings.HasSuffix(m.Address, "/hand"):
				k := pairKey{m.Arguments[1].(string), m.Arguments[2].(string)}
				if m.Arguments[0] != map[string]string{"right": "left", "left": "right"}[hand] {
					t.Errorf("%s: /hand names the other hand %v", hand, m.Arguments[0])
				}
				gotC[k] = true
				if depth, ok := touch[k]; !ok && float64(m.Arguments[3].(float32)) > tol {
					t.Errorf("%s: /hand %v: brute force finds the links apart", hand, m.Arguments)
				} else if ok && abs(float64(m.Arguments[3].(float32))-depth) > 1e-6 {
					t.Errorf("%s: /hand %v: depth %v by brute force", hand, m.Arguments, depth)
				}
			case strings.HasSuffix(m.Address, "/handnear"):
				k := pairKey{m.Arguments[1].(string), m.Arguments[2].(string)}
				gotN[k] = true
				if _, ok := near[k]; !ok {
					if dist := float64(m.Arguments[3].(float32)); dist > tol && dist < 0.01-tol {
						t.Errorf("%s: /handnear %v: brute force disagrees", hand, m.Arguments)
					}
				}
			case strings.HasSuffix(m.Address, "/lod"):
				t.Errorf("%s: /lod %v with a budget for full depth", hand, m.Arguments)
			}
		}
		for k, depth := range touch {
			if !gotC[k] && depth > tol {
				t.Errorf("%s: %v touch %.4f deep by brute force; no /hand", hand, k, depth)
			}
		}
		for k, dist := range near {
			if !gotN[k] && dist > tol && dist < 0.01-tol {
				t.Errorf("%s: %v %.4f apart by brute force; no /handnear", hand, k, dist)
			}
		}
		mu.Lock()
		frames[hand]++
		if len(gotC) > 0 {
			framesWith[hand]++
		}
		mu.Unlock()
	})
	for _, h := range []string{"right", "left"} {
		if frames[h] < 100 || framesWith[h] < frames[h]/4 {
			t.Fatalf("%s: %d frames, %d with hand contacts: the hands did not meet", h, frames[h], framesWith[h])
		}
	}
	t.Logf("frames %v, with hand contacts %v", frames, framesWith)
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestHandsLevelOfDetail: with no time left in the frame, the test between
// the hands stops at their root boxes and says so: /lod <other> 0 in every
// frame where they overlap, and no /hand (the pairs of links were not
// measured); with max_depth set, the level is that cap.
func TestHandsLevelOfDetail(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(*Config)
		level int32
	}{
		{"out of time", func(c *Config) { c.Frame.BudgetMS = 1e-6 }, 0},
		{"max_depth 2", func(c *Config) { two := 2; c.HandContact.MaxDepth = &two; c.Frame.BudgetMS = 1000 }, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			lods := 0
			handshakeDaemon(t, 1500*time.Millisecond, tc.edit, func(d *Daemon, hand string, ms []*goosc.Message) {
				limited := false
				for _, m := range ms {
					if strings.HasSuffix(m.Address, "/lod") {
						limited = true
						if m.Arguments[1] != tc.level {
							t.Errorf("%s: /lod %v, want level %d", hand, m.Arguments, tc.level)
						}
					}
				}
				for _, m := range ms {
					if limited && tc.level == 0 && strings.HasSuffix(m.Address, "/hand") {
						t.Errorf("%s: /hand %v in a frame stopped at the root boxes", hand, m.Arguments)
					}
				}
				if limited {
					mu.Lock()
					lods++
					mu.Unlock()
				}
			})
			if lods < 50 {
				t.Fatalf("%d frames with /lod", lods)
			}
		})
	}
}

// TestHandContactCanBeTurnedOff: [hand_contact] enabled = false sends no
// message between hands.
func TestHandContactCanBeTurnedOff(t *testing.T) {
	off := false
	var n atomic.Int64
	handshakeDaemon(t, 800*time.Millisecond, func(c *Config) { c.HandContact.Enabled = &off }, func(d *Daemon, hand string, ms []*goosc.Message) {
		for _, m := range ms {
			if strings.HasSuffix(m.Address, "/hand") || strings.HasSuffix(m.Address, "/handnear") || strings.HasSuffix(m.Address, "/lod") {
				t.Errorf("%s: %s with hand_contact off", hand, m.Address)
			}
		}
		n.Add(1)
	})
	if n.Load() == 0 {
		t.Fatal("no frame")
	}
}
