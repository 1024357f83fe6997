package calibrator

import (
	"context"
	"errors"
	"io"

	"github.com/gloved/gloved/devices"
)

// both is two UIs at once: each shows everything, and a question is
// answered by whichever answers first.
type both [2]UI

// Both returns a UI that shows a session on a and b and takes each answer
// from whichever gives it first (the terminal and the page, say). One
// whose input ends (io.EOF) leaves the answers to the other.
func Both(a, b UI) UI { return both{a, b} }

var (
	_ UI   = both{}
	_ Live = both{}
)

func (u both) Ask(ctx context.Context, s Step) error {
	_, err := first(ctx, u, func(ctx context.Context, ui UI) (struct{}, error) { return struct{}{}, ui.Ask(ctx, s) })
	return err
}

func (u both) Confirm(ctx context.Context, r *Result) (Decision, error) {
	return first(ctx, u, func(ctx context.Context, ui UI) (Decision, error) { return ui.Confirm(ctx, r) })
}

func (u both) Recording(s Step) {
	for _, ui := range u {
		ui.Recording(s)
	}
}

func (u both) Held(s Step, h *Hold, err error) {
	for _, ui := range u {
		ui.Held(s, h, err)
	}
}

func (u both) Show(r *Result) {
	for _, ui := range u {
		ui.Show(r)
	}
}

func (u both) Live(s *devices.Sample) {
	for _, ui := range u {
		if l, ok := ui.(Live); ok {
			l.Live(s)
		}
	}
}

// first asks both UIs and returns the first answer that is not the end of
// a UI's input; the other is cancelled and waited for, so it never takes
// an answer meant for the next question.
func first[T any](ctx context.Context, u both, ask func(context.Context, UI) (T, error)) (T, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type answer struct {
		v   T
		err error
	}
	answers := make(chan answer, len(u))
	for _, ui := range u {
		go func() {
			v, err := ask(ctx, ui)
			answers <- answer{v, err}
		}()
	}
	var got answer
	pending := len(u)
	for pending > 0 {
		a := <-answers
		pending--
		got = a
		if !errors.Is(a.err, io.EOF) {
			break
		}
	}
	cancel()
	for ; pending > 0; pending-- {
		<-answers
	}
	return got.v, got.err
}
