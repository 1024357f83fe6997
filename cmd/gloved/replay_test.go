package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/recording"
	"github.com/gloved/gloved/devices/sim"
)

// TestReplaySurfacesDamage: a half-truncated recording replays its intact
// part and says so; a recording whose stored calibration is invalid is
// refused, naming it, as dump and contacts refuse it.
func TestReplaySurfacesDamage(t *testing.T) {
	rx, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer rx.Close()
	dir := t.TempDir()
	data, err := os.ReadFile("../../testdata/recordings/grasp.glove")
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "half.glove")
	os.WriteFile(cut, data[:len(data)/2], 0o644)
	r := runBinary(t, 30*time.Second, "replay", cut, "--speed", "max", "--target", rx.LocalAddr().String())
	if r.code != 0 || !strings.Contains(r.stderr, "damaged") || !strings.Contains(r.stdout, "replayed") {
		t.Fatalf("a half recording: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}

	bad := filepath.Join(dir, "badcal.glove")
	rec, err := recording.Create(bad, recording.Header{Model: "sim", Sensors: 22, Hand: "right", Calibration: "glove = \"cyberglove\"\nsensors = 7\n"})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := sim.New(sim.Grasp, 22, 10*time.Millisecond, true)
	var s devices.Sample
	for range 10 {
		g.Read(&s)
		rec.WriteSample(&s)
	}
	rec.Close()
	for _, args := range [][]string{
		{"replay", bad, "--speed", "max", "--target", rx.LocalAddr().String()},
		{"contacts", "--scene", "builtin:grasp", "--recording", bad},
		{"dump", bad},
	} {
		r := runBinary(t, 30*time.Second, args...)
		r.oneLine(t, 1, "badcal.glove (stored calibration)")
	}
}
