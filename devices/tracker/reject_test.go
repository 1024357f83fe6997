package tracker

import (
	"encoding/binary"
	"math"
	"net/netip"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc/vmc"
)

// bone is a datagram of one /VMC/Ext/Bone/Pos, written here byte by
// byte: gloved's own writer sends nothing that is not finite.
func bone(name string, p mgl64.Vec3, q mgl64.Quat) datagram {
	str := func(b []byte, s string) []byte {
		b = append(b, s...)
		return append(b, make([]byte, 4-len(s)%4)...)
	}
	b := str(str(str(nil, vmc.AddrBone), ",sfffffff"), name)
	for _, v := range []float64{p[0], p[1], p[2], q.V[0], q.V[1], q.V[2], q.W} {
		b = binary.BigEndian.AppendUint32(b, math.Float32bits(float32(v)))
	}
	d := datagram{buf: new([maxDatagram]byte)}
	d.n = copy(d.buf[:], b)
	return d
}

// TestBadPosesAndStrangersNeverPoseTheHand: a bone whose rotation is not
// finite or zero, or whose position lies beyond geom.MaxPosition, is
// dropped and counted (a bad frame, out of range), as is a datagram that
// does not parse, each said refused; a good bone from a source neither
// loopback nor in osc.allow is dropped and counted denied (not refused:
// a stranger says nothing of the tracker), and from an allowed one poses
// the hand.
func TestBadPosesAndStrangersNeverPoseTheHand(t *testing.T) {
	dec, err := newVMC(handmodel.DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	g := &Glove{dec: dec, allow: []netip.Prefix{netip.MustParsePrefix("10.1.0.0/16")}}
	local := netip.MustParseAddrPort("127.0.0.1:5000")
	name := vmc.BoneName(3, true)
	bad := []datagram{
		bone(name, mgl64.Vec3{}, mgl64.Quat{W: math.NaN()}),
		bone(name, mgl64.Vec3{}, mgl64.Quat{}),
		bone(name, mgl64.Vec3{200, 0, 0}, mgl64.QuatIdent()),
	}
	for i := range bad {
		bad[i].src = local
		if posed, refused := g.take(&bad[i]); posed || !refused {
			t.Fatalf("bad bone %d: posed %v, refused %v; want refused", i, posed, refused)
		}
	}
	torn := bone(name, mgl64.Vec3{}, mgl64.QuatIdent())
	torn.n, torn.src = 21, local
	if posed, refused := g.take(&torn); posed || !refused {
		t.Fatalf("a torn datagram: posed %v, refused %v; want refused", posed, refused)
	}
	if f := g.log.Counts; f.OutOfRange != 3 || f.BadFrames != 4 {
		t.Fatalf("faults %+v", f)
	}
	good := bone(name, mgl64.Vec3{}, mgl64.QuatIdent())
	good.src = netip.MustParseAddrPort("192.0.2.7:5000")
	if posed, refused := g.take(&good); posed || refused || g.log.Counts.Denied != 1 {
		t.Fatalf("a stranger's bone: faults %+v", g.log.Counts)
	}
	good.src = netip.MustParseAddrPort("10.1.2.3:5000")
	if posed, refused := g.take(&good); !posed || refused {
		t.Fatal("an allowed source's bone did not pose the hand")
	}
	if g.log.Counts.Denied != 1 || g.log.Counts.BadFrames != 4 {
		t.Fatalf("faults %+v", g.log.Counts)
	}
	var s devices.Sample
	g.fill(&s)
	if s.NAngles != int(handmodel.NumJoints) {
		t.Fatalf("a sample of %d angles", s.NAngles)
	}
}
