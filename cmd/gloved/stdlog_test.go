package main

import (
	"bytes"
	"log"
	"testing"
)

// TestTheStandardLoggerDropsOnlyTheLibrariesNoise: quickhull-go's note
// that it gave up closing a hull is dropped; any other line a library
// logs reaches stderr as it is.
func TestTheStandardLoggerDropsOnlyTheLibrariesNoise(t *testing.T) {
	var buf bytes.Buffer
	l := log.New(quietLibraries{&buf}, "", 0)
	l.Println("Failed to solve horizon edge")
	l.Println("dns: something a user should see")
	if got := buf.String(); got != "dns: something a user should see\n" {
		t.Fatalf("stderr got %q", got)
	}
	if _, ok := log.Writer().(quietLibraries); !ok {
		t.Fatalf("the standard logger writes to %T, not through quietLibraries", log.Writer())
	}
}
