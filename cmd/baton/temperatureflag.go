package main

import (
	"fmt"
	"strconv"
)

// temperatureFlag is --temperature: unset leaves the provider's default,
// which a zero could not tell from a temperature of 0.
type temperatureFlag struct{ v *float64 }

func (f *temperatureFlag) String() string {
	if f == nil || f.v == nil {
		return ""
	}
	return strconv.FormatFloat(*f.v, 'g', -1, 64)
}

func (f *temperatureFlag) Set(s string) error {
	t, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("want a number from 0 to 2")
	}
	// The range both providers take, which CreateAgent checks too.
	if !(t >= 0 && t <= 2) {
		return fmt.Errorf("must be from 0 to 2")
	}
	f.v = &t
	return nil
}
