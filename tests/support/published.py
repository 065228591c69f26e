"""The spec's published examples (section 2), typed from the spec: White, Black, printed class.

Shared by the core and the app tests; never computed by the program.
"""

PRINTED = [
    ("KQ", "K", "1000"),
    ("KR", "K", "0100"),
    ("KB", "K", "0010"),
    ("KN", "K", "0001"),
    ("KNN", "K", "0002"),
    ("K", "KN", "0003"),
    ("KN", "KN", "0004"),
    ("KNN", "KN", "0005"),
    ("K", "KNN", "0006"),
    ("KN", "KNN", "0007"),
    ("KNN", "KNN", "0008"),
    ("KNNN", "KNN", "0009"),
    ("KPPP", "KPP", "0000.32"),
    ("KNN", "KP", "0002.01"),
    ("KBB", "KN", "0023"),
    ("KQ", "KR", "1300"),
    ("KQP", "KQ", "4000.10"),
    ("KRP", "KR", "0400.10"),
    ("KRRP", "KRR", "0800.10"),
    ("KBBP", "KNN", "0026.10"),
    ("KBBP", "KRNPP", "0323.12"),
]

#: The named classes the spec gives with their codes.
NAMED = [
    ("KNN", "KP", "0002.01"),  # Troitzky: two knights against pawn
    ("KQRRBBNNPPPPPPPP", "KQRRBBNNPPPPPPPP", "4888.88"),  # the full starting array
]

#: Kubbel, 1st prize Shakhmaty 1925 (spec section 3), its published solution as print has it:
#: 1.Bf2+ Kh1 2.h7 c2+ 3.Be3 Rxe3+ 4.Kf2 Rh3 5.Bd5+ cxd5 6.hxg8Q Rh2+ 7.Kf3 c1Q 8.Qg2+ Rxg2.
KUBBEL_SOLUTION = [
    "Bf2+",
    "Kh1",
    "h7",
    "c2+",
    "Be3",
    "Rxe3+",
    "Kf2",
    "Rh3",
    "Bd5+",
    "cxd5",
    "hxg8Q",
    "Rh2+",
    "Kf3",
    "c1Q",
    "Qg2+",
    "Rxg2",
]
