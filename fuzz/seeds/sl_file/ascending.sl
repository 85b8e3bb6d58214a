# routes in ascending (SLID, DLID) order, each once: read without sorting
1 2 0
1 3 1
2 1 0
0x10 0x20 15
