package handmodel

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove/layout"
)

// cyberGloveJoints is the CyberGlove's sensor-to-joint map written out by
// hand, from 22 slot angles: the obviously correct reference the layout's
// shares must reproduce to the bit (the golden replay hashes rest on it).
func cyberGloveJoints(a *[layout.Slots]float64, n int, q *Angles) {
	if n == 18 {
		for _, f := range [4]int{layout.IndexPIP, layout.MiddlePIP, layout.RingPIP, layout.LittlePIP} {
			a[f+1] = 2.0 / 3 * a[f]
		}
	}
	q[WristPitch], q[WristYaw], q[PalmArch] = a[layout.WristPitch], a[layout.WristYaw], a[layout.PalmArch]
	q[ThumbRoll], q[ThumbAbduction], q[ThumbMCP], q[ThumbIP] = a[layout.ThumbRoll], a[layout.ThumbAbduction], a[layout.ThumbMCP], a[layout.ThumbIP]
	for f, slot := range [4]int{layout.IndexMCP, layout.MiddleMCP, layout.RingMCP, layout.LittleMCP} {
		j := IndexAbduction + Joint(4*f)
		q[j+1], q[j+2], q[j+3] = a[slot], a[slot+1], a[slot+2]
	}
	q[IndexAbduction] = a[layout.MiddleIndexAbduction]
	q[MiddleAbduction] = 0
	q[RingAbduction] = -a[layout.RingMiddleAbduction]
	q[LittleAbduction] = -a[layout.RingMiddleAbduction] - a[layout.LittleRingAbduction]
}

func TestCyberGloveJointMapIsTheReferenceToTheBit(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	values := []float64{0, math.Copysign(0, -1), 1, -1, 1e-300, 3}
	for _, n := range []int{18, 22} {
		m := cyberGloveMaps[1]
		if n == 18 {
			m = cyberGloveMaps[0]
		}
		for trial := range 2000 {
			var slots [layout.Slots]float64
			var sensors [devices.MaxReadings]float64
			for k := range slots {
				slots[k] = (r.Float64() - 0.5) * 4
				if trial%4 == 0 {
					slots[k] = values[r.IntN(len(values))]
				}
			}
			for i := range n {
				sensors[i] = slots[layout.Slot(n, i)]
			}
			var got, want Angles
			var none [devices.MaxAngles]float64
			m.Joints(&sensors, &none, &got)
			cyberGloveJoints(&slots, n, &want)
			for j := range got {
				if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
					t.Fatalf("%d sensors, trial %d, %v: got %v, want %v", n, trial, Joint(j), got[j], want[j])
				}
			}
		}
	}
}

// TestJointMapSumsSharesAndMeasuredAngles: a layout of two sensors and
// one measured angle moves the joints it names by their gains, the others
// not at all.
func TestJointMapSumsSharesAndMeasuredAngles(t *testing.T) {
	l := &devices.Layout{Name: "two", Bits: 10,
		Sensors: []devices.Channel{
			{Name: "index_curl", Joints: []devices.Share{{Joint: "index_mcp", Gain: 0.5}, {Joint: "index_pip", Gain: 0.5}}},
			{Name: "index_splay", Joints: []devices.Share{{Joint: "index_abduction", Gain: 1}, {Joint: "index_mcp", Gain: 0.25}}},
		},
		Angles: []devices.Channel{{Name: "wrist", Joints: devices.Moves("wrist_pitch")}},
	}
	m, err := NewJointMap(l)
	if err != nil {
		t.Fatal(err)
	}
	sensors := [devices.MaxReadings]float64{1, 2}
	angles := [devices.MaxAngles]float64{0.3}
	var q Angles
	for j := range q {
		q[j] = 9 // stale values must not survive
	}
	m.Joints(&sensors, &angles, &q)
	want := Angles{IndexMCP: 0.5 + 0.5, IndexPIP: 0.5, IndexAbduction: 2, WristPitch: 0.3}
	if q != want {
		t.Errorf("got %v, want %v", q, want)
	}
	if n := testing.AllocsPerRun(100, func() { m.Joints(&sensors, &angles, &q) }); n != 0 {
		t.Errorf("Joints allocates %v times", n)
	}
}

func TestJointMapRefusesJointsTheHandHasNot(t *testing.T) {
	l := &devices.Layout{Name: "odd", Bits: 8, Sensors: []devices.Channel{{Name: "tail", Joints: devices.Moves("tail_wag")}}}
	if _, err := NewJointMap(l); err == nil || !strings.Contains(err.Error(), `channel tail moves joint "tail_wag"`) {
		t.Errorf("got %v, want an error naming the channel and the joint", err)
	}
	if _, err := NewJointMap(&devices.Layout{Name: "empty", Bits: 8}); err == nil {
		t.Error("a layout without channels was taken")
	}
}

// BenchmarkCalibrationAngles: a 22-sensor CyberGlove's sample through its
// calibration and joint map, allocation-free.
func BenchmarkCalibrationAngles(b *testing.B) {
	c, err := DefaultCalibration(22)
	if err != nil {
		b.Fatal(err)
	}
	var slots [layout.Slots]uint16
	for k := range slots {
		slots[k] = uint16(40 + 7*k)
	}
	var s devices.Sample
	layout.FromSlots(&slots, 22, &s)
	var q Angles
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Angles(&s, &DefaultLimits, &q); err != nil {
			b.Fatal(err)
		}
	}
}
