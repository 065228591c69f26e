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


#: Kubbel's study as HHdb prints it (Black tag ``=0323.12g3g1``): the spec's 0323.12 example.
HHDB_STUDY = "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1 w - - 0 1"


def hhdb_study(event: str, white: str, black: str, comment: str = "", moves: str = "1/2-1/2") -> str:
    """One game of an HHdb-shaped PGN: its tags, the study's position, then ``comment`` (HHdb's
    first comment, braces included) before ``moves``."""
    return (
        f'[Event "{event}"]\n[White "{white}"]\n[Black "{black}"]\n[Result "1/2-1/2"]\n[SetUp "1"]\n'
        f'[FEN "{HHDB_STUDY}"]\n\n{comment}{moves}\n\n'
    )
