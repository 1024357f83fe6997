package tracker

import (
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc/vmc"
)

// vmcDecoder reads a VMC performer's bones for one side: each finger
// bone's rotation (and the hand bone's, when sent), turned back into the
// hand model's links by the vmc profile's own tables (vmc.Hand.Links) and
// into joint angles by the hand model (handmodel.Unposer). A bone keeps
// its last rotation until it comes again; a datagram with any bone of
// the side poses the hand.
type vmcDecoder struct {
	enc      *vmc.Hand
	un       *handmodel.Unposer
	handBone string
	f        *devices.Faults

	bones    [vmc.NumBones]mgl64.Quat
	got      [vmc.NumBones]bool
	hand     mgl64.Quat
	gotHand  bool
	fresh    bool // a bone of the side came in this datagram
	lostSaid bool

	rel  [handmodel.MaxLinks]mgl64.Mat3
	have [handmodel.MaxLinks]bool
}

// newVMC returns the decoder of the bones of p's side, read on the
// procedural hand p (its size the config's: a performer's bone positions
// are its avatar's, not its hand's, and are not read).
func newVMC(p handmodel.Params) (*vmcDecoder, error) {
	h, err := handmodel.New(p)
	if err != nil {
		return nil, err
	}
	return &vmcDecoder{enc: vmc.NewHand(h, vmc.NewPerformer(time.Time{}, 1), 0), un: handmodel.NewUnposer(h), handBone: vmc.HandBone(p.Right)}, nil
}

func (d *vmcDecoder) begin(f *devices.Faults) { d.f, d.fresh, d.lostSaid = f, false, false }
func (d *vmcDecoder) lost() bool              { return d.lostSaid }

// message reads /VMC/Ext/Bone/Pos of the side's finger and hand bones,
// and /VMC/Ext/OK's tracking; the rest of the protocol (other bones,
// blend shapes, the root) is not the hand's.
func (d *vmcDecoder) message(m *message) {
	switch string(m.addr) {
	case vmc.AddrBone:
		a := m.arguments()
		name := a.string()
		i := d.enc.Bone(name)
		isHand := string(name) == d.handBone
		if i < 0 && !isHand {
			return
		}
		q, ok := readPose(&a, geom.Unity.Inverse(), nil, d.f)
		if !ok {
			return
		}
		if isHand {
			d.hand, d.gotHand = q, true
		} else {
			d.bones[i], d.got[i] = q, true
		}
		d.fresh = true
	case vmc.AddrOK:
		// VMC 2.7: loaded, calibration state, calibration mode, tracking.
		a := m.arguments()
		var v [4]int32
		n := 0
		for ; n < 4 && a.left() > 0; n++ {
			v[n] = a.int()
		}
		if !a.bad && n == 4 && v[3] == 0 {
			d.lostSaid = true
		}
	}
}

// end poses the hand from the bones, if any came: their links, turned
// into angles by pose.
func (d *vmcDecoder) end() bool {
	if !d.fresh {
		return false
	}
	d.enc.Links(&d.bones, &d.got, d.hand, d.gotHand, &d.rel, &d.have)
	return true
}

func (d *vmcDecoder) pose(q *handmodel.Angles) { d.un.Unpose(&d.rel, &d.have, q) }
