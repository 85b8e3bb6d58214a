# values just above a limit, and a conflicting repeat
1 2 16
0xC000 1 1
1 49152 1
0 2 1
5 6 1
5 6 2
