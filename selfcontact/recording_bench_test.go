package selfcontact

import (
	"testing"

	"github.com/gloved/gloved/devices/replay"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
)

// recorded is the shipped glove recording of a grasp, calibrated as it
// was recorded, posing h: each frame's angles and link poses.
func recorded(t testing.TB, h *handmodel.Hand) ([]handmodel.Angles, [][]geom.Transform) {
	t.Helper()
	const file = "../testdata/recordings/grasp.glove"
	r, err := replay.Open(file, false)
	if err != nil {
		t.Fatal(err)
	}
	hdr := r.Header()
	r.Close()
	samples, _, err := replay.ReadSamples(file)
	if err != nil {
		t.Fatal(err)
	}
	cal, err := handmodel.ParseCalibration(file, []byte(hdr.Calibration))
	if err != nil {
		t.Fatal(err)
	}
	qs := make([]handmodel.Angles, len(samples))
	ps := make([][]geom.Transform, len(samples))
	for i := range samples {
		if err := cal.Angles(&samples[i], &h.Limits, &qs[i]); err != nil {
			t.Fatal(err)
		}
		ps[i] = make([]geom.Transform, h.NumLinks())
		h.Pose(&qs[i], geom.Identity(), ps[i])
	}
	return qs, ps
}

// BenchmarkRecording is self-contact's cost per frame on the shipped
// glove recording, for each hand: the frames the daemon's budget is
// judged on.
func BenchmarkRecording(b *testing.B) {
	for name, h := range hands(b) {
		b.Run(name, func(b *testing.B) {
			d := detector(b, h, DefaultOptions)
			qs, ps := recorded(b, h)
			b.ReportAllocs()
			contacts, i := 0, 0
			for b.Loop() {
				d.Frame(&qs[i%len(qs)], ps[i%len(qs)])
				contacts += len(d.Contacts)
				i++
			}
			b.ReportMetric(float64(contacts)/float64(i), "contacts/frame")
		})
	}
}
