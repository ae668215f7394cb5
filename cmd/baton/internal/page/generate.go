package page

//go:generate bash build/build.sh
