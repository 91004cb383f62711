package postlink
